# A test profile, not a part: the EC11's mechanics and bounce with one quarter step per detent and
# 80 detents a turn (the 1-step bouncy encoder of the golden hands replays).
id = ec11-1step
name = EC11-like 1-step encoder on GPIO (test profile)
kind = encoder
report = gpio
detents_per_revolution = 80
steps_per_detent = 1
rest = 11
bounce_toggles = 0..6
bounce_window = 0.05ms..3ms
chatter = none
interrupt_latency = 3us..25us
buttons = BTN_0
button_debounce = 5ms
