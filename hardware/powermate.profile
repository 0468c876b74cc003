# Griffin PowerMate (USB 077d:0410): a heavy aluminium knob with no clicks, read by the
# kernel `powermate` driver.
#
# Where the numbers come from (facts in the project's shared fixture notes):
# - BTN_0 for the push, REL_DIAL as a signed delta per USB report, about 94 counts per turn,
#   at most ±7 per report; the firmware carries what it could not send to the next report.
# - the knob has no detents, so the simulator treats one count as one "detent" (the unit the
#   scenario scripts and the truth are counted in): detents_per_revolution = counts_per_turn
#   = 94 and one quarter step per count, so `turn +94` is one full turn.
# - 8 ms USB polling interval: the project's working number for this full-speed HID device.
# - the firmware reports clean counts; its internal encoder is not documented here, so its
#   contacts are simulated without bounce.
id = powermate
name = Griffin PowerMate
kind = jog-dial
usb = 077d:0410
report = powermate-dial
detents_per_revolution = 94
steps_per_detent = 1
rest = 00
counts_per_turn = 94
counting = quarter-steps
bounce_toggles = 0..0
usb_poll_interval = 8ms
max_delta_per_report = 7
axis = REL_DIAL
buttons = BTN_0
button_debounce = 5ms
