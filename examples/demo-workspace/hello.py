def greet(name: str) -> str:
    return f"hello, {name}"


if __name__ == "__main__":
    print(greet("demo"))
