package probe

import (
	"fmt"
	"os"
	"os/exec"
)

// Build runs `go build -trimpath -o out .` in the module at dir, its
// output on this process's stderr. -trimpath keeps the build cache's
// entries valid for a checkout in any directory.
func Build(dir, out string) error {
	build := exec.Command("go", "build", "-trimpath", "-o", out, ".")
	build.Dir = dir
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build in %s: %v", dir, err)
	}
	return nil
}
