# ttywright shell integration for zsh, sourced by the ZDOTDIR wrapper's
# .zshrc after the user's. The user's own integration is kept instead.
# Each mark carries tw_nonce and the session's nonce (see the bash file).
if [[ $PS1$PROMPT == *133\;[ABCD]* || -n ${VSCODE_SHELL_INTEGRATION-} || ${(j::)functions} == *133\;[ABCD]* ]]; then
	return 0
fi
typeset -g __tw_ran=0 __tw_b=$'%{\e]133;B;tw_nonce=__TW_NONCE__\a%}' __tw_d=$'%{\e]133;D;tw_nonce=__TW_NONCE__;%?\a%}'
typeset -g +x __tw_ran __tw_b __tw_d # after the assignment, which allexport exports

# __tw_urlenc sets REPLY to $1 percent-encoded byte by byte.
__tw_urlenc() {
	setopt localoptions nomultibyte
	local s=$1 c o='' i
	for (( i = 1; i <= ${#s}; i++ )); do
		c=${s[i]}
		case $c in
		[a-zA-Z0-9._~/-]) o+=$c ;;
		*) builtin printf -v c '%%%02X' "'$c"; o+=$c ;;
		esac
	done
	REPLY=$o
}

# __tw_precmd runs first: D with the status of the command that ran,
# unless the PROMPT_EOL_MARK (below) wrote it already.
__tw_precmd() {
	local ret=$?
	if (( __tw_ran )); then
		__tw_ran=0
		builtin printf '\e]133;D;tw_nonce=__TW_NONCE__;%s\a' $ret
	fi
	return $ret
}

# __tw_prompt runs last: OSC 7, A where the prompt starts, B at the end
# of PS1 (again, if a theme rebuilt it). PROMPT_EOL_MARK starts with D
# (with the status, %?): PROMPT_SP prints it before precmd, right where
# the command's output ended, so the mark (% or #) after output with no
# final newline is not part of the output. The marked variables stay in
# this shell: exported (from the environment, by the user's files, by
# allexport, by a typed export), every program would inherit the nonce,
# and `env` would print a real D that ends the command without its
# status. So they are un-exported at every prompt, after the marking
# (PROMPT and prompt are PS1 under other names).
__tw_prompt() {
	local ret=$?
	builtin printf '\e]7;tw_nonce=__TW_NONCE__;file://%s%s\a\e]133;A;tw_nonce=__TW_NONCE__\a' "$HOST" "$PWD"
	[[ $PS1 == *$__tw_b ]] || PS1=$PS1$__tw_b
	[[ ${PROMPT_EOL_MARK-} == $__tw_d* ]] || PROMPT_EOL_MARK=$__tw_d${PROMPT_EOL_MARK-%B%S%#%s%b}
	builtin typeset -g +x PS1 PROMPT prompt PROMPT_EOL_MARK
	return $ret
}

# __tw_preexec: C with the command line as zsh read it, every line.
__tw_preexec() {
	__tw_ran=1
	__tw_urlenc "$1"
	builtin printf '\e]133;C;tw_nonce=__TW_NONCE__;cmdline_url=%s\a' "$REPLY"
}

precmd_functions=(__tw_precmd $precmd_functions __tw_prompt)
preexec_functions+=(__tw_preexec)
