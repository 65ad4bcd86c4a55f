//go:build linux || darwin

package main

// attach_cred_unix.go: the uid of the process at the other end of an
// attach connection, from the kernel, which recorded it when the peer
// connected: the peer cannot say otherwise. fdPeerUID is per system.

import "net"

// peerUID returns the uid of c's peer.
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid, serr := -1, error(nil)
	if err = raw.Control(func(fd uintptr) { uid, serr = fdPeerUID(int(fd)) }); err == nil {
		err = serr
	}
	return uid, err
}
