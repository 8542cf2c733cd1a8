class App:
    def run(self, threads=1):
        return threads
