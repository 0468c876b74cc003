# Contour ShuttlePRO v2 (USB 0b33:0030): the ShuttleXpress's jog wheel and shuttle ring with 15 buttons.
# Where the numbers come from: ../shared fixtures facts (REL_DIAL is an absolute 8-bit counter, every
# shuttle report repeats it; the ring reports REL_WHEEL −7..+7 and nothing on its return to centre);
# the 10 detents per jog turn and 8 ms poll are the ShuttleXpress's, assumed the same.
id = shuttlepro
name = Contour ShuttlePRO v2 jog wheel
kind = jog-shuttle
usb = 0b33:0030
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
buttons = BTN_0, BTN_1, BTN_2, BTN_3, BTN_4, BTN_5, BTN_6, BTN_7, BTN_8, BTN_9
button_debounce = 5ms
counter_start = 0
