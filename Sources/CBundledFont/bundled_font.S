/* The default fonts, embedded with .incbin so the binary needs no resource files. */
    .section .rodata
    .balign 16
    .global iconbadge_font_bold_start
iconbadge_font_bold_start:
    .incbin "DejaVuSans-Bold.ttf"
    .global iconbadge_font_bold_end
iconbadge_font_bold_end:
    .balign 16
    .global iconbadge_font_regular_start
iconbadge_font_regular_start:
    .incbin "DejaVuSans.ttf"
    .global iconbadge_font_regular_end
iconbadge_font_regular_end:
    .section .note.GNU-stack,"",@progbits
