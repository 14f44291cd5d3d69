;;; emacs-init.el --- the docs/editors.md Emacs set-up, for test/editors/emacs.test.ts  -*- lexical-binding: t; -*-
;; An interactive Emacs activates installed packages (Emacs 28's elpa-eglot) before the init file; --batch
;; does not, so this does it first.  Emacs 29 has eglot built in and needs nothing here.
(package-initialize)
(load (expand-file-name "editors/emacs/layout-mode.el" (getenv "LAYOUT_REPO")))
