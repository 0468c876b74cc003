print("flywheeld")
