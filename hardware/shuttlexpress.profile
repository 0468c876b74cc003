# Contour ShuttleXpress (USB 0b33:0020): the inner jog wheel, read through the generic HID
# driver.
#
# Where the numbers come from (facts in the project's shared fixture notes):
# - the jog wheel reports REL_DIAL as an absolute 8-bit counter (each report carries the
#   counter's value 0..255, wrapping), one count per jog detent, 10 detents per turn; every
#   report repeats the counter. The input core never delivers a relative event whose value is
#   0, so the host never sees the counter at 0 (ShuttlePRO's own Linux tool notes the same).
# - buttons BTN_4..BTN_8.
# - not modelled: the spring-loaded shuttle ring (REL_WHEEL −7..+7).
# - assumptions: a full Gray period per jog detent (steps_per_detent 4, rest 11), light
#   contact bounce (the firmware decodes it), an 8 ms USB polling interval.
id = shuttlexpress
name = Contour ShuttleXpress jog wheel
kind = jog-shuttle
usb = 0b33:0020
report = shuttle-counter
detents_per_revolution = 10
steps_per_detent = 4
rest = 11
counts_per_turn = 10
counting = detents
bounce_toggles = 0..4
bounce_window = 0.05ms..1ms
usb_poll_interval = 8ms
axis = REL_DIAL
buttons = BTN_4, BTN_5, BTN_6, BTN_7, BTN_8
button_debounce = 5ms
counter_start = 0
