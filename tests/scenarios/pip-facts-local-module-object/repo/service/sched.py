class Scheduler:
    def before_first(self, fn):
        return fn


app = Scheduler()
