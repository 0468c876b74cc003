# An EC11/KY-040 encoder on GPIO handled by the Linux `rotary-encoder` driver in relative mode
# (device-tree binding `rotary-encoder`; on a Raspberry Pi
# `dtoverlay=rotary-encoder,pin_a=…,pin_b=…,relative_axis=1`), so the host reads evdev events
# instead of edges.
#
# Where the numbers come from:
# - the driver sends REL_X (the axis `linux,axis` names; REL_X by default) ±1 per step, and a
#   step is `rotary-encoder,steps-per-period` = 4 / steps_per_detent, so steps_per_detent 4
#   here means steps-per-period 1, the driver's default full-period mode
#   (Documentation/input/devices/rotary-encoder.rst).
# - the encoder itself is the EC11 of ec11.profile: 20 detents per turn, rest 11, the same
#   working bounce numbers (0..6 toggles within 0.05..3 ms; not fitted to a capture).
# - the push switch goes through gpio-keys (default debounce-interval 5 ms), a separate
#   evdev node from the rotary-encoder one.
id = rotary-encoder
name = EC11 on GPIO through the kernel rotary-encoder driver (relative axis)
kind = encoder
report = rotary-encoder-rel
detents_per_revolution = 20
steps_per_detent = 4
rest = 11
axis = REL_X
bounce_toggles = 0..6
bounce_window = 0.05ms..3ms
interrupt_latency = 3us..25us
buttons = BTN_0
button_debounce = 5ms
