# ttywright shell integration for fish, run by --init-command after the
# user's configuration. The user's own integration is kept instead.
# Each mark carries tw_nonce and the session's nonce (see the bash file).
if not set -q __tw_loaded
    and not functions -q __vsc_update_cwd
    and not string match -q -r '133;[ABCD]' -- (functions fish_prompt) (functions --handlers-type event 2>/dev/null)
    set -g __tw_loaded 1
    set -g __tw_ran 0

    function __tw_preexec --on-event fish_preexec
        set -g __tw_ran 1
        printf '\e]133;C;tw_nonce=__TW_NONCE__;cmdline_url=%s\a' (string escape --style=url -- "$argv")
    end

    # D right after the command, before fish marks a missing newline.
    function __tw_postexec --on-event fish_postexec
        set -l s $status
        if test $__tw_ran = 1
            set -g __tw_ran 0
            printf '\e]133;D;tw_nonce=__TW_NONCE__;%s\a' $s
        end
    end

    function __tw_prompt --on-event fish_prompt
        printf '\e]7;tw_nonce=__TW_NONCE__;file://%s%s\a\e]133;A;tw_nonce=__TW_NONCE__\a' (prompt_hostname) $PWD
    end

    functions -c fish_prompt __tw_user_prompt
    function fish_prompt
        __tw_user_prompt
        printf '\e]133;B;tw_nonce=__TW_NONCE__\a'
    end
end
