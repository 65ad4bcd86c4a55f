package main

// capture_hooks_test.go: what the tests set and read of a captureStore
// that the program never does.

// setMaxBytes sets the cap to n bytes (0 or less: defaultMaxOutputBytes);
// what is already written stays, and counts.
func (c *captureStore) setMaxBytes(n int64) {
	c.mu.Lock()
	c.maxBytes = n
	c.mu.Unlock()
}

// usedBytes returns the bytes counted now (no recount), files rounded up
// to blocks.
func (c *captureStore) usedBytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}
