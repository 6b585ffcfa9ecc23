// clock-benchmark: DisplayLink wake-up lateness against the timers a Swift programmer would use (issue 2).
import DisplayClock
print("clock-benchmark: not built yet")
