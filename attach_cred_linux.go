//go:build linux

package main

// attach_cred_linux.go: the uid of the process at the other end of an
// attach connection, from the kernel (SO_PEERCRED), which it recorded
// when the peer connected: the peer cannot say otherwise.

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID returns the uid of c's peer.
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid, serr := -1, error(nil)
	err = raw.Control(func(fd uintptr) {
		var cred *unix.Ucred
		if cred, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED); serr == nil {
			uid = int(cred.Uid)
		}
	})
	if err == nil {
		err = serr
	}
	return uid, err
}
