package main

// tool_ask_secret.go: shell_ask_secret, which lets the person, not the
// model, type a secret (a sudo or ssh password, a passphrase) straight
// into the program that reads it with echo off. The person types it into
// a one-time page of the loopback web door (web.go); the client shows the
// page through URL-mode elicitation when it can (mcp_elicit.go), else the
// reply carries the link for the agent to show. The secret goes from the
// page to the PTY and nowhere else: no reply, log, command list or
// recording holds it.

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits of shell_ask_secret: how long a page may wait for the person
// (timeout_ms), and how long the program may take to read what was typed
// before the reply is written anyway.
const (
	defaultSecretTimeoutMS = 300000
	maxSecretTimeoutMS     = 1800000
	secretReadTimeout      = 30 * time.Second
	secretWriteTimeout     = 5 * time.Second
	maxSecretMessage       = 500
	// secretRetryGrace is how long past its page's deadline an offered
	// page waits for a 2026-07-28 client's retry.
	secretRetryGrace = time.Minute
	// secretKey is the key of the one input request of an input_required
	// result, which the retry's inputResponses answer.
	secretKey = "secret"
)

type askSecretArgs struct {
	SessionID string `json:"session_id"`
	Message   string `json:"message"`
	TimeoutMS *int   `json:"timeout_ms"`
}

type askSecretResult struct {
	// Delivered: the person submitted the page and the secret went to
	// the program.
	Delivered bool `json:"delivered"`
	// URL is the page, only when the client cannot show it: the agent
	// shows it to the person.
	URL string `json:"url,omitempty"`
	// Action is the person's answer to the client's prompt: accept,
	// decline or cancel.
	Action      string `json:"action,omitempty"`
	ExpiresInMS int64  `json:"expires_in_ms,omitempty"`
	BufferAfter string `json:"bufferAfter,omitempty"`
	waitReport
	exitInfo

	text    string
	interim *InputRequired
}

func (r askSecretResult) blocks() (string, []Content)   { return r.text, nil }
func (r askSecretResult) inputRequired() *InputRequired { return r.interim }

// secretAsks are the pages offered to 2026-07-28 clients whose retry has
// not come yet, by requestState: a crypto/rand.Text value, so a client
// cannot forge one it was not given.
type secretAsks struct {
	mu      sync.Mutex
	pending secretTable[*secretAsk]
	current map[string]*secretAsk // the latest page of each session
}

// secretAsk is one page offered for one prompt of one session.
type secretAsk struct {
	s       *Session
	offer   *SecretOffer
	fg      Foreground
	expires time.Time
	state   secretHash // of its requestState, its key in pending
}

func (a *secretAsks) put(ask *secretAsk) string {
	state := rand.Text()
	a.mu.Lock()
	defer a.mu.Unlock()
	// Pages that ended without a secret, or whose time is past, go as
	// new ones come; a delivered one waits for its retry.
	a.pending.deleteIf(func(old *secretAsk) bool {
		return old.ended() && !old.offer.Delivered() || time.Now().After(old.expires.Add(secretRetryGrace))
	})
	ask.state = a.pending.add(state, ask)
	return state
}

// ended reports whether the ask's page has ended.
func (ask *secretAsk) ended() bool {
	select {
	case <-ask.offer.Done():
		return true
	default:
		return false
	}
}

// only makes ask the one page of session id: a page offered before for
// it ends, so that two pages for one prompt cannot both type (the second
// into whatever reads next).
func (a *secretAsks) only(id string, ask *secretAsk) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.current == nil {
		a.current = map[string]*secretAsk{}
	}
	if old := a.current[id]; old != nil && old != ask {
		old.offer.Cancel()
	}
	a.current[id] = ask
}

// open returns session id's page while it is open, nil when there is
// none: the prompt it was offered for still waits for the person.
func (a *secretAsks) open(id string) *secretAsk {
	a.mu.Lock()
	ask := a.current[id]
	a.mu.Unlock()
	if ask == nil || ask.ended() {
		return nil
	}
	return ask
}

// take removes and returns the ask of state, if it is for session id.
func (a *secretAsks) take(state, id string) *secretAsk {
	a.mu.Lock()
	defer a.mu.Unlock()
	ask, _ := a.pending.lookup(state)
	if ask == nil || ask.s.ID != id {
		return nil
	}
	a.pending.delete(ask.state)
	return ask
}

func (tb *Toolbox) toolShellAskSecret() *Tool {
	return newTool(Tool{
		Name:  "shell_ask_secret",
		Title: "Let the person type a secret",
		Description: "When a reply says a program waits for a secret (sudo, ssh): the person, never you, types it " +
			"on a one-time page the client shows or the reply links. Returns once it is read.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"message":    prop("string", "Why it is needed, for the person."),
			"timeout_ms": prop("integer", "The page's life (default 300000)."),
		}, "session_id"),
		OpenWorld: true,
	}, tb.askSecret, askSecretStep)
}

// askSecret is shell_ask_secret: a first call offers the page, a
// 2026-07-28 retry (call.Answers) goes on with the page it offered.
func (tb *Toolbox) askSecret(ctx context.Context, call *ToolCall, in askSecretArgs) (askSecretResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return askSecretResult{}, err
	}
	if a := call.Answers; a != nil && a.State != "" {
		return tb.askSecretRetry(ctx, call, s, a)
	}
	timeout, err := msArg("timeout_ms", in.TimeoutMS, defaultSecretTimeoutMS, maxSecretTimeoutMS)
	if err != nil {
		return askSecretResult{}, err
	}
	if len(in.Message) > maxSecretMessage {
		return askSecretResult{}, fmt.Errorf("message is %d bytes, and at most %d are shown: say it shorter", len(in.Message), maxSecretMessage)
	}
	ask, err := tb.offerSecret(s, timeout, strings.TrimSpace(in.Message))
	if err != nil {
		return askSecretResult{}, err
	}
	msg := secretMessage(in.Message, s, ask.fg)
	switch {
	case call.Ask.InputRequired:
		state := tb.asks.put(ask)
		return askSecretResult{interim: &InputRequired{State: state,
			Requests: map[string]URLElicitation{secretKey: {URL: ask.offer.URL, Message: msg}}}}, nil
	case call.Ask.Request != nil:
		return tb.askSecretLegacy(ctx, call, ask, msg)
	}
	return secretLinkResult(ask), nil
}

// offerSecret checks that s's foreground program reads a secret and
// offers a page for it, which ends when the prompt does.
func (tb *Toolbox) offerSecret(s *Session, timeout time.Duration, message string) (*secretAsk, error) {
	if tb.web == nil {
		return nil, fmt.Errorf("the secret page is off (ttywright runs with --web=off): ask the person to type it in this session from their own terminal, with ttywright attach %s (then Ctrl-] t takes the keyboard), or to restart ttywright without --web=off", s.ID)
	}
	if st := s.Status(); st.Exited {
		return nil, fmt.Errorf("session %s has exited (exit code %d): nothing reads a secret", s.ID, st.ExitCode)
	}
	fg := s.Foreground()
	switch fg.Input {
	case inputSecret:
	case inputKeys:
		// fish's read -s, and other prompts that hide what is typed in raw
		// mode: key by key, which the page cannot tell from any other
		// keys; a person types it from their own terminal.
		return nil, fmt.Errorf("%s: it reads keys one at a time (raw mode), as fish's read -s does, so the page cannot type into it: "+
			"ask the person to type it from their own terminal with ttywright attach %s (Ctrl-] t takes the keyboard), never type it yourself", fg.describe(), s.ID)
	default:
		return nil, fmt.Errorf("%s: no program reads a secret now, so there is nothing to type into; call this when a reply or wait_for_input says input \"secret\"", fg.describe())
	}
	if ask := tb.asks.open(s.ID); ask != nil && ask.fg.PID == fg.PID {
		return ask, nil // the page for this prompt is open: the person may be typing in it
	}
	expires := time.Now().Add(timeout)
	offer, err := tb.web.OfferSecret(SecretPage{
		Session: s.ID,
		Command: pageCommand(s, fg),
		Prompt:  promptText(s),
		Message: message,
		Expires: expires,
		Deliver: func(secret []byte) error { return writeSecret(s, fg, secret) },
	})
	if err != nil {
		return nil, fmt.Errorf("cannot open the secret page: %v", err)
	}
	ask := &secretAsk{s: s, offer: offer, fg: fg, expires: expires}
	tb.asks.only(s.ID, ask)
	go watchSecretPrompt(s, fg, offer)
	tb.logf("info", "secrets", "session %s: a page for %s's secret, until %s", s.ID, fg.Command, expires.Format(time.TimeOnly))
	return ask, nil
}

// writeSecret types secret and Enter into s, if fg still reads a secret
// there: a page submitted in the moment after its prompt ended (before
// watchSecretPrompt saw it) must not type the secret into what reads
// next, the shell, which would echo it. The copy it writes is zeroed
// after; nothing else keeps it (no echo tracking, no log).
func writeSecret(s *Session, fg Foreground, secret []byte) error {
	if now := s.Foreground(); now.PID != fg.PID || now.Input != inputSecret {
		return fmt.Errorf("%s no longer reads a secret (the prompt ended): nothing was typed", fg.Command)
	}
	p := make([]byte, len(secret)+1)
	copy(p, secret)
	p[len(secret)] = '\r'
	defer clear(p)
	ctx, cancel := context.WithTimeout(context.Background(), secretWriteTimeout)
	defer cancel()
	return s.writeInput(ctx, p)
}

// watchSecretPrompt ends offer when the prompt it was made for ends: the
// program no longer reads a secret on two looks promptHold apart (it
// read one, was interrupted, or exited), or the session ended.
func watchSecretPrompt(s *Session, fg Foreground, offer *SecretOffer) {
	t := time.NewTicker(promptHold)
	defer t.Stop()
	misses := 0
	for {
		select {
		case <-offer.Done():
			return
		case <-s.done:
			offer.Cancel()
			return
		case <-t.C:
		}
		if now := s.Foreground(); now.PID == fg.PID && now.Input == inputSecret {
			misses = 0
		} else if misses++; misses >= 2 {
			offer.Cancel()
			return
		}
	}
}

// askSecretLegacy asks a legacy client to show the page and waits for
// the person.
func (tb *Toolbox) askSecretLegacy(ctx context.Context, call *ToolCall, ask *secretAsk, msg string) (askSecretResult, error) {
	id := "ttywright-" + rand.Text()
	action, err := call.Ask.Request(ctx, URLElicitation{ID: id, URL: ask.offer.URL, Message: msg})
	if err != nil {
		ask.offer.Cancel()
		return askSecretResult{}, fmt.Errorf("the client could not show the page (%v): call again, or ask the person to type it in their own terminal", err)
	}
	if action != "accept" {
		ask.offer.Cancel()
		return declinedResult(ask, action), nil
	}
	res, err := tb.awaitSecret(ctx, call, ask)
	call.Ask.Complete(id)
	res.Action = action
	return res, err
}

// askSecretRetry goes on with the page a first call offered, once the
// client brings the person's answer.
func (tb *Toolbox) askSecretRetry(ctx context.Context, call *ToolCall, s *Session, a *InputAnswers) (askSecretResult, error) {
	ask := tb.asks.take(a.State, s.ID)
	if ask == nil {
		return askSecretResult{}, fmt.Errorf("requestState is not a page this server offered for session %s (it was answered, or the server restarted): call shell_ask_secret again", s.ID)
	}
	var r struct {
		Action string `json:"action"`
	}
	if raw, ok := a.Responses[secretKey]; !ok || json.Unmarshal(raw, &r) != nil {
		ask.offer.Cancel()
		return askSecretResult{}, fmt.Errorf("the retry's inputResponses has no %q answer {\"action\": ...}: call shell_ask_secret again", secretKey)
	}
	if r.Action != "accept" {
		ask.offer.Cancel()
		return declinedResult(ask, r.Action), nil
	}
	res, err := tb.awaitSecret(ctx, call, ask)
	res.Action = r.Action
	return res, err
}

// awaitSecret waits for the person to submit the page, then for the
// program to read what they typed: the reply shows what followed.
func (tb *Toolbox) awaitSecret(ctx context.Context, call *ToolCall, ask *secretAsk) (askSecretResult, error) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	start := time.Now()
	for waiting := true; waiting; {
		select {
		case <-ask.offer.Done():
			waiting = false
		case <-ctx.Done():
			ask.offer.Cancel()
			return askSecretResult{}, errors.New("cancelled before the person typed the secret; the page is closed")
		case <-tick.C:
			// Progress keeps a client's request timeout from firing
			// while the person types.
			call.Progress(time.Since(start).Seconds(), 0, "waiting for the person to type the secret in the page")
		}
	}
	if !ask.offer.Delivered() {
		return endedResult(ask), nil
	}
	out, spec := afterSecret(ctx, call, ask)
	ask.s.settle(ctx)
	res := askSecretResult{Delivered: true, BufferAfter: ask.s.Text(false), waitReport: reportWait(out, spec), exitInfo: stateOf(ask.s)}
	summary := fmt.Sprintf("SECRET TYPED: the person typed it into %s (pid %d), which has read it; you never see it.", ask.fg.Command, ask.fg.PID)
	if !out.matched {
		summary = fmt.Sprintf("SECRET TYPED: the person typed it into %s (pid %d); %s", ask.fg.Command, ask.fg.PID, out.summary(spec))
	}
	res.text = replyText(summary, waitReport{}, commandOutcome{}, res.exitInfo, res.BufferAfter)
	return res, nil
}

// secretRelayQuiet is how long a program that read a secret and then
// relays the terminal in raw mode must be quiet before the reply: sudo
// with use_pty (Debian's default) relays its command's own terminal.
const secretRelayQuiet = 500 * time.Millisecond

// afterSecret waits, once the secret was typed, until the program has
// read it and reads again (wait_for_input). When that reader is the
// program that read the secret, now in raw mode (sudo relaying its
// command, ssh its remote shell), it waits on for secretRelayQuiet of
// quiet, so the reply shows what followed.
func afterSecret(ctx context.Context, call *ToolCall, ask *secretAsk) (waitOutcome, waitSpec) {
	start := time.Now()
	spec := waitSpec{stages: []waitStage{{kind: stageInput, name: "wait_for_input"}}, timeout: secretReadTimeout}
	w := newWatch(ask.s, spec, "")
	out := w.wait(ctx, spec, call.Progress)
	w.close()
	if fg := ask.s.Foreground(); !out.matched || fg.PID != ask.fg.PID || fg.Input != inputKeys {
		return out, spec
	}
	quiet := waitSpec{stages: []waitStage{{kind: stageIdle, name: "wait_idle_ms", d: secretRelayQuiet}}, timeout: max(secretReadTimeout-time.Since(start), secretRelayQuiet)}
	w = newWatch(ask.s, quiet, "")
	defer w.close()
	return w.wait(ctx, quiet, call.Progress), quiet
}

// secretLinkResult is the reply to a client that cannot show the page:
// the link, for the agent to show the person.
func secretLinkResult(ask *secretAsk) askSecretResult {
	left := time.Until(ask.expires).Round(time.Second)
	res := askSecretResult{URL: ask.offer.URL, ExpiresInMS: left.Milliseconds(), exitInfo: stateOf(ask.s)}
	res.text = fmt.Sprintf("SHOW THE PERSON THIS LINK: %s\n"+
		"Tell them: \"Open this link in a browser on this machine to type the password %s asks for (it works once, for %s).\" "+
		"Never ask for the password in the conversation. Then call shell_wait {session_id: %q, wait_for_input: true, timeout_ms: 120000}: "+
		"it returns once the person has typed it and the program wants input again, or the page ended, with what followed.",
		ask.offer.URL, ask.fg.Command, left, ask.s.ID)
	return res
}

// declinedResult is the reply when the person would not open the page.
func declinedResult(ask *secretAsk, action string) askSecretResult {
	res := askSecretResult{Action: action, exitInfo: stateOf(ask.s)}
	res.text = fmt.Sprintf("NOT TYPED: the person answered %q, and the page is closed; %s still waits for the secret. "+
		"Ask the person how to go on, or send C-c to give up the command.", action, ask.fg.Command)
	return res
}

// endedResult is the reply when the page ended without a secret: it
// expired, or the prompt ended first.
func endedResult(ask *secretAsk) askSecretResult {
	res := askSecretResult{exitInfo: stateOf(ask.s), BufferAfter: ask.s.Text(false)}
	why := "the prompt ended first"
	if !time.Now().Before(ask.expires) {
		why = "it expired"
	}
	res.text = replyText(fmt.Sprintf("NOT TYPED: the page closed before the person typed anything (%s).", why),
		waitReport{}, commandOutcome{}, res.exitInfo, res.BufferAfter)
	return res
}

// secretMessage is what the client shows the person with the page:
// the agent's message, then which program asks, from the terminal's own
// state (not the program's words).
func secretMessage(agent string, s *Session, fg Foreground) string {
	what := fmt.Sprintf("%s in terminal session %s asks for a secret (a password or passphrase). Open the page to type it straight into the program; the AI never sees it.", commandLine(fg), s.ID)
	if agent = strings.TrimSpace(agent); agent != "" {
		return agent + "\n" + what
	}
	return what
}

// commandLine is fg's command and arguments, as the page shows them.
func commandLine(fg Foreground) string {
	return strings.Join(append([]string{fg.Command}, fg.Args...), " ")
}

// pageCommand is the command line the page shows, from the kernel: the
// executable's path (a program chooses its own name, so a python script
// linked as ./sudo shows as python), the name it runs as when that
// differs, and each argument quoted when it needs it. The session's own
// shell (a read -s in it) shows as the session started it, with what it
// is: its kernel arguments are ttywright's wrapper around the user's rc
// file, which would say nothing to the person.
func pageCommand(s *Session, fg Foreground) string {
	exe := processExe(fg.PID)
	var b strings.Builder
	if fg.PID == s.Status().Pid && s.ShellInfo().Integration.Shell != "" { // a shell ttywright wraps
		fmt.Fprintf(&b, "%s, this session's shell (its own read, such as read -s)", strings.Join(append([]string{cmp.Or(exe, s.Command)}, s.Args...), " "))
		return b.String()
	}
	switch {
	case exe == "":
		b.WriteString(fg.Command)
	case filepath.Base(exe) != fg.Command:
		fmt.Fprintf(&b, "%s (running as %q)", exe, fg.Command)
	default:
		b.WriteString(exe)
	}
	args := processArgv(fg.PID)
	if args == nil {
		args = fg.Args
	}
	for _, a := range args {
		b.WriteByte(' ')
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`;&|<>()*?[]{}#~") {
			a = strconv.Quote(a)
		}
		b.WriteString(a)
	}
	return b.String()
}

// promptText is the text of the cursor's row: the program's prompt.
func promptText(s *Session) string {
	snap := s.Snapshot()
	return strings.TrimSpace(snap.RowText(snap.Cursor.Row))
}

// askSecretReply is what a trace shows of shell_ask_secret's reply: never
// the page's URL.
type askSecretReply struct {
	Delivered bool   `json:"delivered"`
	Action    string `json:"action,omitempty"`
	waitEnd
}

// askSecretStep is shell_ask_secret's step form: a person typed what a
// replay cannot, which its tape says in a comment. A call that returned
// the page for the agent to show did not fail: the person types later.
func askSecretStep(in askSecretArgs, out askSecretResult) stepView {
	end := endOf(out.waitReport, out.exitInfo, commandOutcome{}, false)
	v := stepView{SessionID: in.SessionID, Summary: clipRunes(in.Message, 40), Reply: askSecretReply{out.Delivered, out.Action, end},
		Tape: []tapeCmd{tapeComment("a person typed a secret here (shell_ask_secret): a replay cannot, so type it with Type or leave the step out")}}
	switch {
	case out.URL != "":
		v.Summary += " (a page offered to the person)" // the wait that follows sees whether they typed
	case !out.Delivered:
		v.Failed = "not delivered"
	}
	return v
}
