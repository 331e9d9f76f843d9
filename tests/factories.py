import factory
from factory.django import DjangoModelFactory, Password

from accounts.models import User

PASSWORD = "tiles-and-racks-42"


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.LazyAttribute(lambda user: user.username.title())
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = Password(PASSWORD)
