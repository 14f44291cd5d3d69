-- The init.lua of docs/editors.md (Neovim), with the repository and node taken from the environment.
local repo = vim.env.LAYOUT_REPO
vim.opt.runtimepath:prepend(repo .. '/editors/vim')
dofile(repo .. '/editors/nvim/layout.lua').setup({ cmd = { vim.env.LAYOUT_NODE, repo .. '/dist/server.js', '--stdio' } })
