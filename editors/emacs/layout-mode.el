;;; layout-mode.el --- Major mode for .layout files, with eglot  -*- lexical-binding: t; -*-

;; A small major mode for .layout files (LEGO layouts, kernels, PEAK-style schedules): syntax colouring
;; with the categories of the TextMate grammar and the Vim syntax file, `#' comments, two-space
;; indentation, and the Layout language server through eglot (built into Emacs 29; on Emacs 28, install
;; eglot 1.9 or later, e.g. Debian 12's `elpa-eglot').  Tested in test/editors/emacs.test.ts.
;; See docs/editors.md.  Usage, in your init file:
;;   (load "/path/to/layout-lang/editors/emacs/layout-mode.el")

;;; Code:

(defvar layout-mode-font-lock-keywords
  `((,(regexp-opt '("param" "const" "let" "layout" "perm" "kernel" "schedule") 'symbols) . font-lock-keyword-face)
    (,(regexp-opt '("target" "template" "builtin" "assume" "where" "for" "on" "inverse" "in"
                    "if" "then" "else" "and" "or" "not") 'symbols) . font-lock-keyword-face)
    (,(regexp-opt '("GroupBy" "OrderBy" "TileBy" "ExpandBy" "TileOrderBy" "RegP" "GenP" "Row" "Col") 'symbols)
     . font-lock-type-face)
    (,(concat (regexp-opt '("findOp" "tileForGrids" "tile" "fuse" "parallelizeForBlocks" "parallelizeForThreads"
                            "bufferize" "promote" "unroll" "vectorize" "parallelizeForWarps" "mma" "asyncCopy"
                            "multibuffer" "pipeline" "swizzleShared" "min" "max") 'symbols) "\\s-*(")
     1 font-lock-builtin-face)
    ("\\_<\\(let\\|layout\\|perm\\|kernel\\|schedule\\)\\s-+\\([A-Za-z_][A-Za-z0-9_]*\\)" 2 font-lock-function-name-face)
    (,(regexp-opt '("cuda" "triton" "mlir") 'symbols) . font-lock-constant-face)
    ("\\_<sm_[0-9]+[a-z]?\\_>" . font-lock-constant-face)
    ("\\_<[0-9]+\\(?:_[0-9]+\\)*\\_>" . font-lock-constant-face))
  "Font-lock keywords of `layout-mode'.")

(defvar layout-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?\" "\"" table)
    table)
  "Syntax table of `layout-mode'.")

;;;###autoload
(define-derived-mode layout-mode prog-mode "Layout"
  "Major mode for .layout files."
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 2)
  (setq-local font-lock-defaults '(layout-mode-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.layout\\'" . layout-mode))

(defvar eglot-server-programs)

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(layout-mode . ("layout-language-server" "--stdio"))))

(declare-function eglot-ensure "eglot" ())

(defun layout-mode-eglot-ensure ()
  "Start eglot here where eglot is installed.
Eglot is built in from Emacs 29; on Debian 12's Emacs 28 it is the
`elpa-eglot' package.  Without eglot, `layout-mode' still colours and indents."
  (when (require 'eglot nil t)
    (eglot-ensure)))

(add-hook 'layout-mode-hook #'layout-mode-eglot-ensure)

(provide 'layout-mode)
;;; layout-mode.el ends here
