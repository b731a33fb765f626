"""make bench: run every package's benchmark module that exists and print its figures."""
import importlib
import sys

MODULES = ["engine.bench", "speech.bench", "display.bench", "vision.bench", "kiosk.bench",
           "kiosk.stations.bench", "kiosk.bench_rooms"]


def main() -> int:
    wanted = sys.argv[1:] or MODULES
    failed = 0
    for name in wanted:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                print(f"# {name}: pas encore de benchmark")
                continue
            raise
        print(f"\n===== {name} =====", flush=True)
        failed |= int(module.main() or 0)
    return failed


if __name__ == "__main__":
    sys.exit(main())
