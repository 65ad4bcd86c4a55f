# ttywright shell integration for fish, run by --init-command after the
# user's configuration. The user's own integration is kept instead.
if not set -q __tw_loaded
    and not functions -q __vsc_update_cwd
    and not string match -q -r '133;[ABCD]' -- (functions fish_prompt) (functions --handlers-type event 2>/dev/null)
    set -g __tw_loaded 1
    set -g __tw_ran 0

    function __tw_preexec --on-event fish_preexec
        set -g __tw_ran 1
        printf '\e]133;C;cmdline_url=%s\a' (string escape --style=url -- "$argv")
    end

    # D right after the command, before fish marks a missing newline.
    function __tw_postexec --on-event fish_postexec
        set -l s $status
        if test $__tw_ran = 1
            set -g __tw_ran 0
            printf '\e]133;D;%s\a' $s
        end
    end

    function __tw_prompt --on-event fish_prompt
        printf '\e]7;file://%s%s\a\e]133;A\a' (prompt_hostname) $PWD
    end

    functions -c fish_prompt __tw_user_prompt
    function fish_prompt
        __tw_user_prompt
        printf '\e]133;B\a'
    end
end
