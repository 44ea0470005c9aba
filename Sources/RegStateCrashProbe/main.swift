print("crash probe: not built yet")
