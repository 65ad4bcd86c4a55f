# ttywright's ZDOTDIR wrapper: written as .zshenv, .zprofile, .zshrc and
# .zlogin, each reads the user's file of that name from the user's ZDOTDIR
# (TTYWRIGHT_ZDOTDIR), then points ZDOTDIR back here for the next one.
# The last file zsh reads (.zshrc, or .zlogin for a login shell) leaves
# the user's ZDOTDIR in place; .zshrc adds the marks.
__tw_dir=$ZDOTDIR
ZDOTDIR=$TTYWRIGHT_ZDOTDIR
[[ -r $ZDOTDIR/__TW_FILE__ ]] && builtin . $ZDOTDIR/__TW_FILE__
TTYWRIGHT_ZDOTDIR=$ZDOTDIR
if [[ __TW_FILE__ == .zshrc ]]; then
	builtin . $__tw_dir/integration.zsh
fi
if [[ __TW_FILE__ == .zlogin || ( __TW_FILE__ == .zshrc && ! -o login ) ]]; then
	if [[ -n ${TTYWRIGHT_ZDOTDIR_UNSET-} ]]; then
		unset ZDOTDIR
	fi
	unset TTYWRIGHT_ZDOTDIR TTYWRIGHT_ZDOTDIR_UNSET
else
	ZDOTDIR=$__tw_dir
fi
unset __tw_dir
