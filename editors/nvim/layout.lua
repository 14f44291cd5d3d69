-- Neovim set-up for .layout files (docs/editors.md): starts the Layout language server for every buffer
-- of filetype `layout` (editors/vim/ftdetect/layout.vim sets it for *.layout) and attaches the buffer.
-- Works on Neovim 0.7 (vim.lsp.start_client + buf_attach_client) and 0.8+ (vim.lsp.start, which
-- re-uses a running client of the same name and root).
--
--   dofile('/path/to/layout-lang/editors/nvim/layout.lua').setup()
--   -- or: .setup({ cmd = { 'node', '/path/to/layout-lang/dist/server.js', '--stdio' } })
local M = {}

-- the folder that holds `.git` or `package.json` above the file, else the file's folder
local function root_of(bufnr)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h')
  local git = vim.fn.finddir('.git', dir .. ';')
  if git ~= '' then return vim.fn.fnamemodify(git, ':p:h:h') end
  local pkg = vim.fn.findfile('package.json', dir .. ';')
  if pkg ~= '' then return vim.fn.fnamemodify(pkg, ':p:h') end
  return dir
end

local clients = {} -- root -> client id (Neovim 0.7)

function M.attach(bufnr, cmd)
  local root = root_of(bufnr)
  local config = { name = 'layout', cmd = cmd, root_dir = root }
  if vim.lsp.start then
    -- Neovim 0.8 and later
    vim.lsp.start(config, { bufnr = bufnr })
  else
    -- Neovim 0.7
    if not clients[root] or vim.lsp.client_is_stopped(clients[root]) then
      clients[root] = vim.lsp.start_client(config)
    end
    vim.lsp.buf_attach_client(bufnr, clients[root])
  end
end

function M.setup(opts)
  opts = opts or {}
  local cmd = opts.cmd or { 'layout-language-server', '--stdio' }
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'layout',
    callback = function(args) M.attach(args.buf, cmd) end,
  })
end

return M
