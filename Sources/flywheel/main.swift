print("flywheel")
