//go:build darwin

package main

import "golang.org/x/sys/unix"

// fdPeerUID is the peer's uid from LOCAL_PEERCRED (what getpeereid reads).
func fdPeerUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}
