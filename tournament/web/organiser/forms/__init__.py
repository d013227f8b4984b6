"""Forms of the organiser pages, by what they are about. They check what a form can check; the
services check the rules."""
