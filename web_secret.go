package main

// web_secret.go: how the door, the secret asks and the HTTP transport's
// bearer token keep and compare their secret tokens: by SHA-256 only.
// Every such token is minted by crypto/rand.Text (at least 128 random
// bits in 26 base32 characters, A-Z and 2-7), which never fails.

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"iter"
	"maps"
)

// longToken returns 256 random bits in 52 characters: two
// crypto/rand.Text values joined. It is for tokens that face the network
// and live long (the HTTP bearer token, OAuth codes and tokens): RFC 6749
// §10.10 wants a guess to succeed with at most 2^-128 and advises 2^-160.
func longToken() string { return rand.Text() + rand.Text() }

// secretHash is the SHA-256 of a secret token: what is kept and
// compared in place of the token.
type secretHash [sha256.Size]byte

// hashSecret returns the SHA-256 of token.
func hashSecret(token string) secretHash { return sha256.Sum256([]byte(token)) }

// matches reports whether token is the one h was made of. It compares
// digests in constant time, so neither the time taken nor the token's
// length tells a guesser anything.
func (h secretHash) matches(token string) bool {
	got := hashSecret(token)
	return subtle.ConstantTimeCompare(got[:], h[:]) == 1
}

// secretTable holds values by the SHA-256 of their tokens; the tokens
// themselves are not kept. A lookup indexes a map by the digest: how
// long that takes tells a guesser nothing about the token, since a
// digest matching in its first bytes needs a preimage, so it stands in
// for a constant-time comparison. The zero value is an empty table. It
// is not safe for concurrent use: its owner's lock guards it.
type secretTable[V any] struct {
	m map[secretHash]V
}

// add keeps v under token and returns the token's hash, which delete
// takes.
func (t *secretTable[V]) add(token string, v V) secretHash {
	h := hashSecret(token)
	t.put(h, v)
	return h
}

// lookup returns the value kept under token, and whether there is one.
func (t *secretTable[V]) lookup(token string) (V, bool) {
	v, ok := t.m[hashSecret(token)]
	return v, ok
}

// get returns the value kept under the token whose hash is h.
func (t *secretTable[V]) get(h secretHash) (V, bool) {
	v, ok := t.m[h]
	return v, ok
}

// put keeps v under the token whose hash is h (a table read back from a
// file holds hashes only).
func (t *secretTable[V]) put(h secretHash, v V) {
	if t.m == nil {
		t.m = map[secretHash]V{}
	}
	t.m[h] = v
}

// delete forgets the value kept under the token whose hash is h.
func (t *secretTable[V]) delete(h secretHash) { delete(t.m, h) }

// deleteIf forgets every value drop reports true for (an expired code,
// an ended page).
func (t *secretTable[V]) deleteIf(drop func(V) bool) {
	maps.DeleteFunc(t.m, func(_ secretHash, v V) bool { return drop(v) })
}

// len is the number of values kept.
func (t *secretTable[V]) len() int { return len(t.m) }

// all yields each hash and the value kept under it, in no order; the
// loop may delete from t.
func (t *secretTable[V]) all() iter.Seq2[secretHash, V] { return maps.All(t.m) }
