package main

// capture_names.go: validation of capture names and session ids, which
// name files and directories under the output directory.

import (
	"fmt"
	"strings"
)

// maxNameLen bounds capture names (file systems allow 255 bytes a name).
const maxNameLen = 128

// cleanName validates a capture name or session id: letters, digits, '-',
// '_' and '.', at most maxNameLen bytes, not "." or "..", no leading dot.
// A trailing ext (".png") is removed first. The error says what to use.
func cleanName(name, ext string) (string, error) {
	name = strings.TrimSpace(name)
	if ext != "" && len(name) >= len(ext) && strings.EqualFold(name[len(name)-len(ext):], ext) {
		name = name[:len(name)-len(ext)] // "x.PNG" is x, not x.PNG.png
	}
	if name == "" {
		return "", fmt.Errorf("name is empty: use letters, digits, '-', '_' or '.', e.g. \"step-1\"")
	}
	if len(name) > maxNameLen {
		return "", fmt.Errorf("name is %d bytes long: use at most %d", len(name), maxNameLen)
	}
	if name[0] == '.' || strings.Contains(name, "..") {
		return "", fmt.Errorf("name %q may not start with '.' or contain '..': use letters, digits, '-', '_' or '.'", name)
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return "", fmt.Errorf("name %q has %q: use only letters, digits, '-', '_' and '.' (no path separators)", name, r)
		}
	}
	return name, nil
}
