package main

// licenses.go: PLACEHOLDER for ttywright --licenses. The rendering work
// replaces this file with licenseText in font.go, which returns the
// LICENSES/ texts of the embedded fonts (Terminus and GNU Unifont, SIL
// OFL 1.1); delete this file then.

// licenseText returns the licences and copyright notices of embedded data.
func licenseText() string {
	return "ttywright embeds no third-party data yet: the font licences (SIL OFL 1.1) arrive with the font.\n"
}
