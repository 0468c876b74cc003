# Alps EC11E15244G1 (EC11E series, 15 pulses and 30 detents per turn) wired straight to GPIO
# lines and read through libgpiod: a half Gray period per detent.
#
# Where the numbers come from:
# - 30 detents and 15 pulses (full quadrature periods) per turn, from the part's number and
#   Alps's EC11E table: two quarter steps per detent, so the contacts rest alternately both
#   open and both closed. Arduino encoder libraries call this "half pulse" mode for this part.
# - rest 11: with pull-ups, the detent where both contacts are open reads 11 (the next reads 00;
#   the decoder takes both as detents).
# - bounce: the EC11's working numbers (0..6 extra toggles within 0.05..3 ms of every line
#   change), not fitted to a capture of this part.
# - interrupt latency 3..25 us: an assumption for a Raspberry Pi-class board's GPIO interrupt.
# - button: the push switch through gpio-keys, default debounce-interval 5 ms.
id = ec11e-30
name = Alps EC11E15244G1 (30 detents, 15 pulses) on GPIO
kind = encoder
report = gpio
detents_per_revolution = 30
steps_per_detent = 2
rest = 11
bounce_toggles = 0..6
bounce_window = 0.05ms..3ms
chatter = none
interrupt_latency = 3us..25us
buttons = BTN_0
button_debounce = 5ms
