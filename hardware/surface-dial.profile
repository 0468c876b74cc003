# Microsoft Surface Dial (Bluetooth 045e:091b, "Surface Dial System Multi Axis"): BTN_0 plus REL_DIAL
# as a signed delta, 3600 units per turn in its HID descriptor (../shared fixtures facts). It has
# haptic clicks rather than mechanical detents; Flywheel gives it 36 detents per turn (100 units each).
# The 8 ms report interval and the ±7 detent cap per report are assumptions for the simulator.
id = surface-dial
name = Microsoft Surface Dial
kind = jog-dial
usb = 045e:091b
report = powermate-dial
detents_per_revolution = 36
steps_per_detent = 1
rest = 00
counts_per_turn = 3600
counting = quarter-steps
bounce_toggles = 0..0
usb_poll_interval = 8ms
max_delta_per_report = 700
axis = REL_DIAL
buttons = BTN_0
button_debounce = 5ms
