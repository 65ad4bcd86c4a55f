//go:build darwin

package main

// attach_cred_darwin.go: the uid of the process at the other end of an
// attach connection, from the kernel (LOCAL_PEERCRED, what getpeereid
// reads), which it recorded when the peer connected.

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
		var cred *unix.Xucred
		if cred, serr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED); serr == nil {
			uid = int(cred.Uid)
		}
	})
	if err == nil {
		err = serr
	}
	return uid, err
}
