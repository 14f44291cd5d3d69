" Vim syntax file
" Language:   Layout (.layout: LEGO layouts, kernels and PEAK-style schedules)
" Maintainer: the layout-lang project (editors/vim/syntax/layout.vim)
" The same categories as the TextMate grammar (syntaxes/layout.tmLanguage.json); test/editors checks
" that both colour the same words the same way.

if exists('b:current_syntax')
  finish
endif

syn case match

" declarations and block keywords
syn keyword layoutDeclaration param const let layout perm kernel schedule
syn keyword layoutKeyword target template builtin assume where for on inverse in
syn keyword layoutConditional if then else
syn keyword layoutOperatorWord and or not
syn keyword layoutTarget cuda triton mlir

" the LEGO algebra's constructors, methods, built-in functions, schedule primitives
syn keyword layoutConstructor GroupBy OrderBy TileBy ExpandBy TileOrderBy RegP GenP Row Col
syn match layoutMethod /\.\@1<=\s*\<\(apply\|inv\)\>/
syn match layoutBuiltin /\<\(min\|max\)\>\ze\s*(/
syn match layoutPrimitive /\<\(findOp\|tileForGrids\|tile\|fuse\|parallelizeForBlocks\|parallelizeForThreads\|parallelizeForWarps\|bufferize\|promote\|unroll\|vectorize\|mma\|asyncCopy\|multibuffer\|pipeline\|swizzleShared\)\>\ze\s*(/
syn match layoutGpu /\<sm_\d\+[a-z]\=\>/

" the name a declaration introduces
syn match layoutDeclName /\%(\<\%(let\|layout\|perm\|kernel\|schedule\)\s\+\)\@<=\h\w*/

" literals
syn match layoutNumber /\<\d\+\%(_\d\+\)*\>/
syn region layoutString start=/"/ skip=/\\./ end=/"\|$/ contains=layoutEscape oneline
syn match layoutEscape /\\./ contained

" operators
syn match layoutOperator "==\|!=\|<=\|>=\|<\|>\|//\|[-+*/%=]"

" comments last: `#` to the end of the line, with TODO markers
syn keyword layoutTodo TODO FIXME XXX NOTE contained
syn match layoutComment /#.*$/ contains=layoutTodo,@Spell

hi def link layoutDeclaration Keyword
hi def link layoutKeyword Keyword
hi def link layoutConditional Conditional
hi def link layoutOperatorWord Operator
hi def link layoutTarget Constant
hi def link layoutConstructor Type
hi def link layoutMethod Function
hi def link layoutBuiltin Function
hi def link layoutPrimitive Function
hi def link layoutGpu Constant
hi def link layoutDeclName Identifier
hi def link layoutNumber Number
hi def link layoutString String
hi def link layoutEscape SpecialChar
hi def link layoutOperator Operator
hi def link layoutTodo Todo
hi def link layoutComment Comment

let b:current_syntax = 'layout'
