package main

// capture.go: the capture-file store. Screenshots and recordings write
// their files under {OutputDir}/{session id}/ through an os.Root on the
// output directory, so that a symlink or hard link planted there cannot
// lead a write outside it. Paths for the results come from capturePath
// (names.go); reads go through readCapture (resources.go).

import (
	"errors"
	"fmt"
	"os"
)

// captureRoot opens the output directory (creating it 0700) as an os.Root,
// with the session's directory made inside it.
func (a *App) captureRoot(sessionID string) (*os.Root, error) {
	if err := ensureOutputDir(a.cfg.OutputDir); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(a.cfg.OutputDir)
	if err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	if err := root.Mkdir(sessionID, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		root.Close()
		return nil, fmt.Errorf("output directory: %w", err)
	}
	return root, nil
}

// createCapture creates (or truncates) {OutputDir}/{sessionID}/{file}
// through os.Root, so a symlink planted in the output directory cannot lead
// outside it.
func (a *App) createCapture(sessionID, file string) (*os.File, error) {
	root, err := a.captureRoot(sessionID)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// A fresh file every time: truncating in place would write through a
	// hard link planted under this name to a file elsewhere.
	if err := root.Remove(sessionID + "/" + file); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("create %s: %w", a.capturePath(sessionID, file, ""), err)
	}
	f, err := root.OpenFile(sessionID+"/"+file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", a.capturePath(sessionID, file, ""), err)
	}
	return f, nil
}

// renameCapture renames a file inside the session's capture directory.
func (a *App) renameCapture(sessionID, from, to string) error {
	root, err := a.captureRoot(sessionID)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.Rename(sessionID+"/"+from, sessionID+"/"+to); err != nil {
		return fmt.Errorf("save %s: %w", a.capturePath(sessionID, to, ""), err)
	}
	return nil
}

// removeCapture removes a file from the session's capture directory; a
// missing file is not an error.
func (a *App) removeCapture(sessionID, file string) {
	root, err := a.captureRoot(sessionID)
	if err != nil {
		return
	}
	defer root.Close()
	root.Remove(sessionID + "/" + file) // best effort: a leftover part file is harmless
}
