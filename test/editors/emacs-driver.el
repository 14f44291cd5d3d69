;;; emacs-driver.el --- drives eglot through the docs/editors.md set-up  -*- lexical-binding: t; -*-
;; Loaded after test/editors/emacs-init.el by test/editors/emacs.test.ts:
;;   emacs --batch -l test/editors/emacs-init.el -l test/editors/emacs-driver.el
;; Opens $LAYOUT_FILE, waits for eglot and flymake, asks for hover and definition, formats the buffer
;; with `eglot-format-buffer', and writes what it saw as JSON to $LAYOUT_OUT.
(require 'json)
(defvar layout-test-out nil)

(defun layout-test-wait (pred seconds)
  "Wait until PRED is non-nil or SECONDS passed; return PRED's value."
  (let ((deadline (+ (float-time) seconds)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    v))

(defun layout-test-pos (pos)
  "POS as (0-based line, 0-based column)."
  (save-excursion (goto-char pos) (vector (1- (line-number-at-pos)) (current-column))))

(condition-case err
    (let* ((buf (find-file-noselect (getenv "LAYOUT_FILE")))
           (expected (string-to-number (getenv "LAYOUT_DIAGNOSTICS"))))
      (set-buffer buf)
      (push (cons 'mode (symbol-name major-mode)) layout-test-out)
      (push (cons 'emacs emacs-version) layout-test-out)
      (push (cons 'eglot (if (boundp 'eglot--version) eglot--version
                           (or (ignore-errors (package-get-version)) "")))
            layout-test-out)
      ;; `eglot-ensure' (on layout-mode-hook) connects on the next command; batch runs none, so run the hook.
      (run-hooks 'post-command-hook)
      (push (cons 'managed (and (layout-test-wait (lambda () (bound-and-true-p eglot--managed-mode)) 15) t))
            layout-test-out)
      ;; flymake defers its first check until the buffer is shown and a command ran: start it now
      (push (cons 'flymake (and (bound-and-true-p flymake-mode) t)) layout-test-out)
      (layout-test-wait (lambda () (flymake-start nil t) (>= (length (flymake-diagnostics)) expected)) 15)
      (push (cons 'diagnostics
                  (vconcat
                   (mapcar (lambda (d)
                             (vector (layout-test-pos (flymake-diagnostic-beg d))
                                     (layout-test-pos (flymake-diagnostic-end d))
                                     (symbol-name (flymake-diagnostic-type d))
                                     (flymake-diagnostic-text d)))
                           (sort (flymake-diagnostics)
                                 (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))))
            layout-test-out)
      ;; hover and definition at the M of `Row(M,N)' (line 2, column 23, 0-based 1:23)
      (goto-char (point-min)) (forward-line 1) (move-to-column 23)
      (push (cons 'markdownMode (and (fboundp 'gfm-view-mode) t)) layout-test-out)
      (let ((server (eglot-current-server)))
        (push (cons 'hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)))
              layout-test-out)
        (push (cons 'hoverText (eglot--hover-info
                                (plist-get (jsonrpc-request server :textDocument/hover
                                                            (eglot--TextDocumentPositionParams))
                                           :contents)))
              layout-test-out))
      ;; definition through xref, as M-. does
      (let ((defs (xref-backend-definitions 'eglot (xref-backend-identifier-at-point 'eglot))))
        (push (cons 'definitions
                    (vconcat (mapcar (lambda (x)
                                       (let ((loc (xref-item-location x)))
                                         (with-current-buffer (marker-buffer (xref-location-marker loc))
                                           (vector (file-name-nondirectory (buffer-file-name))
                                                   (layout-test-pos (xref-location-marker loc))))))
                                     defs)))
              layout-test-out))
      (eglot-format-buffer)
      (push (cons 'formatted (buffer-substring-no-properties (point-min) (point-max))) layout-test-out))
  (error (push (cons 'error (format "%S" err)) layout-test-out)))

(with-temp-file (getenv "LAYOUT_OUT") (insert (json-encode layout-test-out)))
(kill-emacs 0)
