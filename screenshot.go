package main

// screenshot.go: shell_screenshot. SKELETON: the rendering work replaces it.

func (a *App) toolShellScreenshot() *Tool { return notYet("shell_screenshot") }
