" .layout files (LEGO layouts and PEAK-style schedules): filetype `layout`
autocmd BufRead,BufNewFile *.layout setfiletype layout
