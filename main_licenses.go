package main

// main_licenses.go: the licences of the embedded font, readable from the binary
// (OFL condition 2 wants them to travel with every copy, and `go install`
// users get only the binary).

import (
	"embed"
	"strings"
)

//go:embed LICENSES/FONTS.txt LICENSES/OFL-1.1.txt
var licenseFiles embed.FS

// licenseText returns the font notices (LICENSES/FONTS.txt) followed by
// the SIL Open Font License 1.1 text (LICENSES/OFL-1.1.txt), as printed
// by `ttywright --licenses`.
func licenseText() string {
	var b strings.Builder
	for _, name := range []string{"LICENSES/FONTS.txt", "LICENSES/OFL-1.1.txt"} {
		data, _ := licenseFiles.ReadFile(name) // embedded: cannot fail
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.Write(data)
	}
	return b.String()
}
