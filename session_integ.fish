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

    # D right after the command, before fish marks a missing newline. A
    # command that ran exit (below) gets its D only at the next prompt,
    # if one comes.
    function __tw_postexec --on-event fish_postexec
        set -l s $status
        if set -q __tw_exiting
            set -e __tw_exiting
            set -g __tw_exited $s
        else
            __tw_end $s
        end
    end

    # __tw_end writes D with status $argv[1] when a command ran.
    function __tw_end
        if test $__tw_ran = 1
            set -g __tw_ran 0
            printf '\e]133;D;tw_nonce=__TW_NONCE__;%s\a' $argv[1]
        end
    end

    # __tw_start writes OSC 7 and A, where a prompt starts.
    function __tw_start
        printf '\e]7;tw_nonce=__TW_NONCE__;file://%s%s\a\e]133;A;tw_nonce=__TW_NONCE__\a' (prompt_hostname) $PWD
    end

    function __tw_prompt --on-event fish_prompt
        if set -q __tw_exited
            __tw_end $__tw_exited
            set -e __tw_exited
        end
        __tw_wrap
        __tw_start
    end

    # __tw_wrap makes fish_prompt the user's prompt followed by B. The
    # user may define another fish_prompt at any time (a typed function,
    # fish_config, a prompt tool's init): it is wrapped again before fish
    # draws it, since the fish_prompt event comes first. The wrapper is
    # known by its description.
    function __tw_wrap
        if contains -- 'ttywright: the prompt, then its end mark' (functions -Dv fish_prompt 2>/dev/null)
            return
        end
        functions -e __tw_user_prompt
        functions -q fish_prompt
        and functions -c fish_prompt __tw_user_prompt
        function fish_prompt --description 'ttywright: the prompt, then its end mark'
            __tw_user_prompt
            printf '\e]133;B;tw_nonce=__TW_NONCE__\a'
        end
    end
    __tw_wrap

    # fish runs `exit` as a command and reports its end (fish_postexec),
    # then draws no prompt. In bash and zsh the shell exits before the
    # command's end, which the server then takes for the session's; so
    # that fish's exit ends its command the same way, with the session's
    # exit code, exit notes that the shell may exit, and its command's D
    # waits for the next prompt: there is none when the shell exited, and
    # there is one when it did not (exit in a file being sourced ends only
    # that file; fish refuses once while jobs run). The status it exits
    # with is the one before it, or its argument, as for fish's own exit.
    # A user's own exit function is kept: then B at the exit at least tells
    # that no prompt comes after the command.
    if not functions -q exit
        function exit --description 'ttywright: exit, noted for the end mark'
            set -l s $status
            set -g __tw_exiting 1
            if set -q argv[1]
                builtin exit $argv
            end
            builtin exit $s
        end
    end
    function __tw_exit --on-event fish_exit
        printf '\e]133;B;tw_nonce=__TW_NONCE__\a'
    end

    # C-c on a command line: fish prints ^C, emits fish_cancel and draws
    # its prompt again on a new line, but without the fish_prompt event:
    # A tells that the line was discarded and a new prompt starts there.
    function __tw_cancel --on-event fish_cancel
        __tw_start
    end

    # C-c on an empty command line: fish's own binding leaves the prompt as
    # it is and tells nothing, so a C-c sent to leave a prompt would wait
    # for an answer that never comes. Where C-c has fish's own binding, it
    # gets one that marks the same prompt as new (A, and B as fish draws
    # it again) and otherwise does what fish's did.
    function __tw_cancel_key
        set -l line (commandline)
        if test -n "$line"
            if functions -q $__tw_cancel_default
                $__tw_cancel_default
            else
                commandline -f $__tw_cancel_default
            end
            return
        end
        __tw_start
        commandline -f cancel repaint
    end
    if not bind --user \cc >/dev/null 2>&1
        set -l b (bind \cc 2>/dev/null)
        if string match -q -r '^bind --preset \\\\cc (cancel-commandline|__fish_cancel_commandline)$' -- "$b"
            set -g __tw_cancel_default (string split ' ' -- $b)[-1]
            bind \cc __tw_cancel_key
        end
    end
end
