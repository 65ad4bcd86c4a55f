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
__tw_ran=0 __tw_e=x __tw_hn=

# __tw_precmd runs first at each prompt: D with the status of the command
# that ran (none after an empty line) and its history entry, which the
# server checks against the history number noted at the prompt before.
# The entry's %, CR, LF, BEL and ESC are percent-encoded: an OSC string
# cannot hold them, and a pasted command keeps its line breaks.
__tw_precmd() {
	local ret=$? h
	if ((__tw_ran)); then
		__tw_ran=0
		h=$(HISTTIMEFORMAT= builtin history 1)
		h=${h//'%'/%25} h=${h//$'\n'/%0A} h=${h//$'\r'/%0D} h=${h//$'\a'/%07} h=${h//$'\e'/%1B}
		builtin printf '\e]133;D;tw_nonce=__TW_NONCE__;%s;tw_histcmd=%s;tw_history_url=%s\a' "$ret" "$__tw_hn" "$h"
	fi
	return $ret
}

# __tw_prompt runs last: OSC 7, then A where the prompt starts; PS1 gets B
# at its end again if the user's PROMPT_COMMAND rebuilt it. The marked
# prompts stay in this shell: exported (from the environment, by the
# user's files, by allexport, by a typed export), every program the shell
# runs would inherit the nonce, and one that prints its environment would
# write real marks. So they are un-exported at every prompt, after the
# marking.
__tw_prompt() {
	local ret=$?
	__tw_hn=$HISTCMD
	builtin printf '\e]7;tw_nonce=__TW_NONCE__;file://%s%s\a\e]133;A;tw_nonce=__TW_NONCE__\a' "${HOSTNAME-}" "$PWD"
	[[ $PS1 == *'\[\e]133;B;tw_nonce=__TW_NONCE__\a\]' ]] || PS1=$PS1'\[\e]133;B;tw_nonce=__TW_NONCE__\a\]'
	# Continuation prompts are marked as secondary (k=s): the server
	# reads each line of a multi-line command between them.
	[[ $PS2 == '\[\e]133;A;tw_nonce=__TW_NONCE__;k=s\a\]'*'\[\e]133;B;tw_nonce=__TW_NONCE__\a\]' ]] || PS2='\[\e]133;A;tw_nonce=__TW_NONCE__;k=s\a\]'$PS2'\[\e]133;B;tw_nonce=__TW_NONCE__\a\]'
	builtin export -n PS0 PS1 PS2
	return $ret
}

# PS0 is expanded when a command line has been read, before it runs: the
# arithmetic sets __tw_ran in this shell without a subshell.
PS0='${__tw_e:$((__tw_ran=1)):0}\e]133;C;tw_nonce=__TW_NONCE__\a'${PS0-}
builtin export -n PS0 # and again at each prompt (__tw_prompt)
PROMPT_COMMAND=$'__tw_precmd\n'"${PROMPT_COMMAND-}"$'\n__tw_prompt'
if [[ -n ${__tw_first-} ]]; then
	unset __tw_first
	__tw_prompt # the first prompt: PROMPT_COMMAND is running already
fi
[[ $__tw_a == *a* ]] && builtin set -a
unset __tw_a
