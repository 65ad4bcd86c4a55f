package main

func genTape(t *sessionTrace) string { return "" }
