class Store:
    def create_all(self):
        return None


db = Store()
