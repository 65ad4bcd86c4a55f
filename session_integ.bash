# ttywright shell integration for bash, read through --rcfile. It first
# reads what bash itself would have read, then adds the OSC 133 marks and
# OSC 7 unless the user's files set up their own. Each mark carries
# tw_nonce and the session's nonce, which ttywright writes into this copy
# of the file: marks in a program's output lack it and are ignored.
if [[ -n ${TTYWRIGHT_BASH_LOGIN-} ]]; then
	# A login shell: the profile chain (bash ignores --rcfile then, so
	# ttywright starts it as a non-login shell and reads the chain here).
	if [[ $TTYWRIGHT_BASH_LOGIN != noprofile ]]; then
		[[ -r /etc/profile ]] && . /etc/profile
		for __tw_f in ~/.bash_profile ~/.bash_login ~/.profile; do
			if [[ -r $__tw_f ]]; then
				. "$__tw_f"
				break
			fi
		done
	fi
else
	case ${TTYWRIGHT_BASH_RC-} in
	'')
		[[ -r /etc/bash.bashrc ]] && . /etc/bash.bashrc
		[[ -r ~/.bashrc ]] && . ~/.bashrc
		;;
	:user) [[ -r ~/.bashrc ]] && . ~/.bashrc ;; # this bash read /etc/bash.bashrc itself
	:env)
		# bash --norc: read through PROMPT_COMMAND at the first prompt,
		# which now runs the hooks instead (and is no longer exported).
		builtin export -n PROMPT_COMMAND
		PROMPT_COMMAND=
		;;
	*) [[ -r $TTYWRIGHT_BASH_RC ]] && . "$TTYWRIGHT_BASH_RC" ;;
	esac
fi
[[ ${TTYWRIGHT_BASH_RC-} == :env ]] && __tw_first=1
unset TTYWRIGHT_BASH_LOGIN TTYWRIGHT_BASH_RC __tw_f

# The user's own integration (VS Code, WezTerm, starship, ...) is kept
# and ours left out, so that no mark is written twice.
if [[ $PS0$PS1${PROMPT_COMMAND[*]-} == *133\;[ABCD]* || -n ${VSCODE_SHELL_INTEGRATION-} || $(builtin declare -f) == *133\;[ABCD]* ]]; then
	return 0 2>/dev/null
fi

# allexport (set -a) from the user's files would export what is defined
# here, the marking functions too: it is off until the end of this file.
__tw_a=$-
builtin set +a
__tw_ran=0 __tw_e= __tw_hn= __tw_cn=0 __tw_armed=0 __tw_f=0 __tw_g=(0)
# __tw_hf is where __tw_end has history write the command's entry: a file
# beside this one, in the session's private directory (no subshell).
__tw_hf=${BASH_SOURCE[0]%/*}/history

# The hooks must outlive what the user does at the prompt: a typed
# PROMPT_COMMAND='...', PROMPT_COMMAND+=(...), unset PROMPT_COMMAND, a
# new PS0 or PS1, or a tool (direnv, starship, bash-preexec) that wraps,
# saves or rewrites them. So at each prompt __tw_prompt puts back what is
# missing, and the start of PS1 (below) stands in for the hooks at a
# prompt where none of them ran.
#
# From bash 5.1 on PROMPT_COMMAND is an array whose elements run in
# index order, each with $? of the user's command: its
# first element starts with __tw_precmd and holds the user's commands
# after it, and its last element is __tw_prompt alone. A plain
# assignment (PROMPT_COMMAND='...') sets element 0 only, so the user's
# commands are replaced as they would be without us and __tw_prompt still
# runs; elements the user appends run before it from the next prompt on.
# Before 5.1 only a string runs: __tw_precmd, a newline, the user's
# commands, a newline and __tw_prompt.
if ((BASH_VERSINFO[0] > 5 || BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1)); then
	__tw_arr=1
else
	__tw_arr=0
fi
# __tw_far is the index at which the start of PS1 puts __tw_prompt back
# into a PROMPT_COMMAND array the user replaced or unset: past any the
# user has, so that it runs last.
__tw_far=2147483647

# __tw_precmd runs first at each prompt: D with the status of the command
# that ran (none after an empty line). It returns that status, for the
# user's commands after it.
__tw_precmd() {
	local ret=$?
	((__tw_ran)) && __tw_end "$ret"
	return $ret
}

# __tw_end writes D with status $1 and the command's history entry, which
# the server checks against the history number noted at the prompt
# before. The entry's %, CR, LF, BEL and ESC are percent-encoded: an OSC
# string cannot hold them, and a pasted command keeps its line breaks.
__tw_end() {
	local h
	__tw_ran=0
	# Through a file, as $(history 1) gives it (trailing newlines removed)
	# without the fork of a subshell: bash reads $(<file) itself.
	if HISTTIMEFORMAT= builtin history 1 2>/dev/null >|"$__tw_hf"; then
		h=$(<"$__tw_hf")
	else
		h=$(HISTTIMEFORMAT= builtin history 1)
	fi
	h=${h//'%'/%25} h=${h//$'\n'/%0A} h=${h//$'\r'/%0D} h=${h//$'\a'/%07} h=${h//$'\e'/%1B}
	builtin printf '\e]133;D;tw_nonce=__TW_NONCE__;%s;tw_histcmd=%s;tw_history_url=%s\a' "$1" "$__tw_hn" "$h"
}

# __tw_start writes OSC 7 and A, where the prompt starts.
__tw_start() {
	builtin printf '\e]7;tw_nonce=__TW_NONCE__;file://%s%s\a\e]133;A;tw_nonce=__TW_NONCE__\a' "${HOSTNAME-}" "$PWD"
}

# __tw_prompt runs last at each prompt. Called from a function (a prompt
# tool that saved PROMPT_COMMAND and evals its copy, then rebuilds PS1),
# it leaves the prompt to the __tw_prompt that PROMPT_COMMAND runs itself,
# after the tool; it does the work only when PROMPT_COMMAND has lost that
# one.
__tw_prompt() {
	local ret=$?
	if ((${#FUNCNAME[@]} > 1)) && __tw_hooked; then
		return $ret
	fi
	__tw_mark "$ret"
	return $ret
}

# The marks that PS0, PS1 and PS2 get. PS0's arithmetic sets __tw_ran
# (a command line was read and runs) and notes bash's command number (\#)
# without a subshell, then C; PS1 ends with B; PS2, a continuation
# prompt, is marked secondary (k=s): the server reads each line of a
# multi-line command between them. The marks themselves, which carry the
# nonce, are in variables of this shell that the prompts expand: a prompt
# variable the user exports gives no program a mark.
#
# PS1 starts with the stand-in for the hooks. Its parts expand in this
# shell, in order, and print nothing: the first notes in __tw_f whether
# this prompt lacks the hooks (no __tw_prompt since the last prompt: it
# sets __tw_armed to 0), is the shell's own prompt (the command number has
# moved on from the last command's; an expansion of ${PS1@P} in a
# command or a function does not count) and arms the next; only then do
# the others run. The subshell writes D, with the status $? that PS1 sees
# first (before any command substitution of the user's PS1), OSC 7 and
# A on the terminal (stderr) before bash draws the prompt; the arithmetic
# does what __tw_end and __tw_mark would have noted; the last one puts
# __tw_prompt back where PROMPT_COMMAND has nothing (element __tw_far, or
# an empty string), so that only that name ever reaches the arithmetic,
# where 0&& keeps it from being evaluated.
__tw_c=$'\e]133;C;tw_nonce=__TW_NONCE__\a' __tw_b=$'\e]133;B;tw_nonce=__TW_NONCE__\a' __tw_s=$'\e]133;A;tw_nonce=__TW_NONCE__;k=s\a'
__tw_ps0='${__tw_e:$((__tw_ran=1,__tw_cn=\#)):0}${__tw_c}'
__tw_ps1a='\[${__tw_e:$((__tw_f=__tw_armed&&\#!=__tw_cn&&${#FUNCNAME[@]}==0,__tw_armed=1,0)):0}${__tw_e:${__tw_g[__tw_f]:-$(__tw_late>&2)$((__tw_ran=0,__tw_hn=HISTCMD,0))}:0}'
if ((__tw_arr)); then
	__tw_ps1a+='${__tw_e:0&&${__tw_g[__tw_f&&0${PROMPT_COMMAND[__tw_far]:+1}==0]:-${PROMPT_COMMAND[__tw_far]:=__tw_prompt}}:0}\]'
else
	__tw_ps1a+='${__tw_e:0&&${__tw_g[__tw_f&&0${PROMPT_COMMAND:+1}==0]:-${PROMPT_COMMAND:=__tw_prompt}}:0}\]'
fi
__tw_ps1b='\[${__tw_b}\]'
__tw_ps2a='\[${__tw_s}\]'

# __tw_late is what the start of PS1 runs, in a subshell, at a prompt
# where no hook ran.
__tw_late() {
	local ret=$?
	((__tw_ran)) && __tw_end "$ret"
	__tw_start
}

# __tw_mark does the prompt's work with status $1: D when __tw_precmd did
# not run (its status is the user's in an array element of its own), OSC
# 7 and A; then it puts back each mark a prompt variable lost, once, and
# the hooks into PROMPT_COMMAND. The marked prompts stay in this shell:
# exported (from the environment, by the user's files, by allexport, by a
# typed export), they would give every program the shell runs our
# variables' names and a shell started from it broken prompts. So they
# are un-exported at every prompt, after the marking, and so is
# PROMPT_COMMAND, which names functions such a shell lacks, and each
# variable of ours that allexport exported.
__tw_mark() {
	((__tw_ran)) && __tw_end "$1"
	__tw_hn=$HISTCMD __tw_armed=0
	__tw_start
	[[ ${PS0-} == *"$__tw_ps0"* ]] || PS0=$__tw_ps0${PS0-}
	[[ ${PS1-} == "$__tw_ps1a"*"$__tw_ps1b" ]] || {
		PS1=${PS1-} PS1=${PS1//"$__tw_ps1a"/} PS1=${PS1//"$__tw_ps1b"/}
		PS1=$__tw_ps1a$PS1$__tw_ps1b
	}
	[[ ${PS2-} == "$__tw_ps2a"*"$__tw_ps1b" ]] || {
		PS2=${PS2-} PS2=${PS2//"$__tw_ps2a"/} PS2=${PS2//"$__tw_ps1b"/}
		PS2=$__tw_ps2a$PS2$__tw_ps1b
	}
	__tw_hooked || __tw_hook
	builtin export -n PS0 PS1 PS2 PROMPT_COMMAND __tw_ran __tw_cn __tw_armed __tw_f __tw_hn __tw_b __tw_c __tw_s
}

# __tw_hooked reports whether PROMPT_COMMAND has the hooks where they
# belong: __tw_precmd starts it (its first element) and __tw_prompt ends
# it (its last element, and no other).
__tw_hooked() {
	local i first= last= n=0
	if ((!__tw_arr)); then
		[[ ${PROMPT_COMMAND-} == $'__tw_precmd\n'*$'\n__tw_prompt' ]]
		return
	fi
	for i in "${!PROMPT_COMMAND[@]}"; do
		[[ -z $first ]] && first=$i
		last=$i
		[[ ${PROMPT_COMMAND[i]} == __tw_prompt ]] && ((n++))
	done
	[[ -n $first && $first != "$last" && $n == 1 && ${PROMPT_COMMAND[last]} == __tw_prompt &&
		(${PROMPT_COMMAND[first]} == __tw_precmd || ${PROMPT_COMMAND[first]} == $'__tw_precmd\n'*) ]]
}

# __tw_hook puts the hooks into PROMPT_COMMAND around the user's
# commands, where they are and in their order, dropping any copy of ours
# that a tool moved among them. A string is an array's element 0.
__tw_hook() {
	local i c
	local -a pc=()
	for i in "${!PROMPT_COMMAND[@]}"; do
		c=${PROMPT_COMMAND[i]}
		c=${c//$'__tw_precmd\n'/} c=${c//'__tw_precmd;'/} c=${c//'__tw_prompt;'/} c=${c//$'\n__tw_prompt'/}
		[[ $c == __tw_precmd || $c == __tw_prompt ]] && c=
		if ((__tw_arr)); then
			[[ -n $c || $i == 0 ]] && pc[i]=$c
		elif ((i == 0)); then
			pc[0]=$c
		fi
	done
	((${#pc[@]})) || pc[0]=
	builtin unset PROMPT_COMMAND
	if ((!__tw_arr)); then
		PROMPT_COMMAND=$'__tw_precmd\n'${pc[0]}$'\n__tw_prompt'
		return
	fi
	for i in "${!pc[@]}"; do
		PROMPT_COMMAND[i]=${pc[i]}
	done
	for i in "${!pc[@]}"; do
		PROMPT_COMMAND[i]=__tw_precmd${pc[i]:+$'\n'${pc[i]}}
		break
	done
	PROMPT_COMMAND+=(__tw_prompt)
}

builtin export -n PS0 # and again at each prompt (__tw_mark)
PS0=$__tw_ps0${PS0-}
__tw_hook
if [[ -n ${__tw_first-} ]]; then
	unset __tw_first
	__tw_mark 0 # the first prompt: PROMPT_COMMAND is running already
fi
[[ $__tw_a == *a* ]] && builtin set -a
unset __tw_a
