# A USB mouse scroll wheel with high-resolution scrolling: the kernel's HID input layer sends
# REL_WHEEL_HI_RES in 120ths of a detent and REL_WHEEL for each whole detent.
#
# Where the numbers come from:
# - 120 per detent, partial detents as fractions of 120: the REL_WHEEL_HI_RES convention
#   (the project's shared fixture notes; the kernel's hid-input scroll handling).
# - counts_per_turn 96 over 24 detents = 4 counts per detent (a resolution multiplier of 4,
#   30/120 per count), counting every quarter step: an assumed wheel, not a measured one.
# - max 127 counts per report (an 8-bit signed wheel field), 8 ms polling (125 Hz), light
#   bounce on the wheel's mechanical encoder: assumptions.
# - the wheel click is BTN_MIDDLE.
id = hires-wheel
name = USB mouse wheel with high-resolution scrolling
kind = wheel
report = hires-wheel
detents_per_revolution = 24
steps_per_detent = 4
rest = 11
counts_per_turn = 96
counting = quarter-steps
bounce_toggles = 0..4
bounce_window = 0.05ms..1ms
usb_poll_interval = 8ms
max_delta_per_report = 127
axis = REL_WHEEL
buttons = BTN_MIDDLE
button_debounce = 5ms
