# Alps EC11-style mechanical rotary encoder (and the KY-040 module built around one),
# wired straight to GPIO lines and read through libgpiod.
#
# Where the numbers come from:
# - 20 detents per turn and a full Gray period (4 quarter steps) per detent: the common
#   20-pulse/20-detent EC11 part used on the KY-040 module.
# - rest 11: the module pulls both lines up and the contacts are open at a detent, so both
#   lines read high there.
# - bounce: 0..6 extra toggles within 0.05..3 ms of every line change. These are the
#   project's working numbers for worn mechanical contacts (a few milliseconds of bounce);
#   we have no logic-analyser capture of our own to fit them to.
# - interrupt latency 3..25 us: an assumption for a Raspberry Pi-class board's GPIO interrupt.
# - button: the KY-040's push switch (SW pin) through gpio-keys, whose default
#   debounce-interval is 5 ms.
id = ec11
name = Alps EC11 / KY-040 rotary encoder on GPIO
kind = encoder
report = gpio
detents_per_revolution = 20
steps_per_detent = 4
rest = 11
bounce_toggles = 0..6
bounce_window = 0.05ms..3ms
chatter = none
interrupt_latency = 3us..25us
buttons = BTN_0
button_debounce = 5ms
