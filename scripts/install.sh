#!/bin/sh
# install.sh install PREFIX BINARY | install.sh uninstall PREFIX
# BINARY's iconbadge-loader (beside it, scripts/build-loader.sh) goes into
# PREFIX/libexec/iconbadge, where the installed binary looks for it.
# The list of installed files lives here only, so uninstall removes exactly them; the
# README, the manual and its pictures go into PREFIX/share/doc/iconbadge
# (scripts/install-docs.sh), which is iconbadge's own and goes whole.
set -eu
action=$1
prefix=$2
files="bin/iconbadge libexec/iconbadge/iconbadge-loader share/man/man1/iconbadge.1 share/bash-completion/completions/iconbadge share/zsh/site-functions/_iconbadge share/fish/vendor_completions.d/iconbadge.fish"
case "$action" in
install)
    binary=$3
    loader="$(dirname "$binary")/iconbadge-loader"
    [ -x "$loader" ] || {
        echo "install.sh: no $loader beside $binary (scripts/build-loader.sh $(dirname "$binary") builds it)" >&2
        exit 66
    }
    install -d "$prefix/bin" "$prefix/libexec/iconbadge" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
        "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
    install -m 755 "$binary" "$prefix/bin/iconbadge"
    install -m 755 "$loader" "$prefix/libexec/iconbadge/iconbadge-loader"
    "$binary" --generate-manpage > "$prefix/share/man/man1/iconbadge.1"
    "$binary" --generate-completion-script bash > "$prefix/share/bash-completion/completions/iconbadge"
    "$binary" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_iconbadge"
    "$binary" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/iconbadge.fish"
    chmod 644 "$prefix/share/man/man1/iconbadge.1" "$prefix/share/bash-completion/completions/iconbadge" \
        "$prefix/share/zsh/site-functions/_iconbadge" "$prefix/share/fish/vendor_completions.d/iconbadge.fish"
    for file in $files; do echo "installed $prefix/$file"; done
    "$(dirname "$0")/install-docs.sh" "$prefix/share/doc/iconbadge" | sed "s#^#installed $prefix/share/doc/iconbadge/#"
    ;;
uninstall)
    for file in $files; do
        rm -f "$prefix/$file" && echo "removed $prefix/$file"
    done
    rmdir "$prefix/libexec/iconbadge" 2>/dev/null || true
    rm -rf "$prefix/share/doc/iconbadge" && echo "removed $prefix/share/doc/iconbadge"
    ;;
*)
    echo "usage: install.sh install PREFIX BINARY | install.sh uninstall PREFIX" >&2
    exit 64
    ;;
esac
