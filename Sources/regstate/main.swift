print("regstate: not built yet")
