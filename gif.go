package main

// gif.go: shell_record_start, shell_record_stop. SKELETON: the recording
// work replaces it.

func (a *App) toolShellRecordStart() *Tool { return notYet("shell_record_start") }
func (a *App) toolShellRecordStop() *Tool  { return notYet("shell_record_stop") }
