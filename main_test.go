package main

import "flag"

// update regenerates golden files under testdata/ instead of comparing
// against them: go test -run TestX -update.
var update = flag.Bool("update", false, "rewrite golden files in testdata/")
