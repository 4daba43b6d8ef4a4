#!/bin/sh
# sandbox.sh REPOSITORY: fills the current (empty) folder with the files the commands
# of the README and the manual name, so that each page's commands run as written
# (Tests/iconbadgeTests/DocCommandTests.swift runs every page in a folder made so).
# A page's own file blocks (```json beta.json) are written after this.
set -eu
root=$1

# The fixtures, as the commands that name Fixtures/... expect them (a copy: a page's
# commands may write goldens there).
mkdir -p Fixtures/corpus
cp -R "$root/Fixtures/icons" "$root/Fixtures/examples" "$root/Fixtures/android" "$root/Fixtures/xcode" \
    "$root/Fixtures/formats" Fixtures/
cp -R "$root/Fixtures/corpus/pixelmatch" Fixtures/corpus/

# Single icons the examples name.
cp Fixtures/icons/app-ios-180.png AppIcon.png          # an iPhone app icon, 180 px
cp Fixtures/icons/folder-48x48.png icon.png            # a desktop icon, 48 px
cp Fixtures/icons/folder-48x48.png a.png
cp Fixtures/icons/mail-unread-symbolic.svg bell.svg    # a 16 pt toolbar icon, SVG

# A toolbar icon drawn at each scale: bell.png (44 px), bell@2x.png, bell@3x.png.
mkdir icons
cp Fixtures/icons/folder-44x44.png icons/bell.png
iconbadge Fixtures/icons/folder-132x132.png --value 0 --size 88 -o icons/bell@2x.png 2>/dev/null
cp Fixtures/icons/folder-132x132.png icons/bell@3x.png

# An Xcode project's asset catalog (Xcode 16's app icon set with its dark and tinted
# icons) and an Xcode 26 Icon Composer icon.
cp -R Fixtures/xcode/App App

# An Android app's main source set: AndroidManifest.xml and res/.
mkdir -p app/src
cp -R Fixtures/android/sample-app app/src/main
