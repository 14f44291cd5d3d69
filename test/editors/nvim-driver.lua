-- Drives a headless Neovim through the documented set-up (editors/nvim/layout.lua, editors/vim) against
-- dist/server.js, and writes what it saw as JSON to $LAYOUT_OUT; test/editors/neovim.test.ts checks it.
-- Run as: nvim --headless -u test/editors/nvim-init.lua -i NONE -n -c "luafile test/editors/nvim-driver.lua"
local repo = vim.env.LAYOUT_REPO
local out = {}

local function finish()
  local f = io.open(vim.env.LAYOUT_OUT, 'w')
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  vim.cmd('syntax on')
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.LAYOUT_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[bufnr].filetype
  out.nvim = vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch
  out.api = vim.lsp.start and 'vim.lsp.start' or 'vim.lsp.start_client'

  -- syntax groups of the Vim syntax file at (1-based line, 1-based column)
  out.syntax = {}
  for _, p in ipairs(vim.fn.json_decode(vim.env.LAYOUT_SYNTAX_AT)) do
    local id = vim.fn.synID(p[1], p[2], 1)
    table.insert(out.syntax, { p[1], p[2], vim.fn.synIDattr(id, 'name') })
  end

  -- diagnostics: wait until the server published some
  out.attached = vim.wait(15000, function() return #vim.lsp.buf_get_clients(bufnr) > 0 end, 20)
  local expected = tonumber(vim.env.LAYOUT_DIAGNOSTICS)
  vim.wait(15000, function() return #vim.diagnostic.get(bufnr) >= expected end, 20)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out.diagnostics, { d.lnum, d.col, d.end_lnum, d.end_col, d.severity, code, d.message })
  end
  table.sort(out.diagnostics, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)

  local uri = vim.uri_from_bufnr(bufnr)
  local function request(method, line, character)
    local params = { textDocument = { uri = uri }, position = { line = line, character = character } }
    local answers = vim.lsp.buf_request_sync(bufnr, method, params, 10000) or {}
    for _, a in pairs(answers) do
      if a.result then return a.result end
      if a.err then return { error = a.err.message } end
    end
    return vim.NIL
  end
  -- hover on the param M where `Row(M, N)` uses it; definition of that M
  out.hover = request('textDocument/hover', 1, 23)
  out.definition = request('textDocument/definition', 1, 23)

  -- formatting through Neovim's own command
  if vim.lsp.buf.format then vim.lsp.buf.format({ timeout_ms = 10000 }) else vim.lsp.buf.formatting_sync(nil, 10000) end
  out.formatted = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
end)
if not ok then out.error = tostring(err) end
finish()
