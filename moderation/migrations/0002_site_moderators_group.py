from typing import Any

from django.db import migrations


def create_group(apps: Any, schema_editor: Any) -> None:
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name="Site moderators")


def delete_group(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name="Site moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_cases_rulings_log"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
