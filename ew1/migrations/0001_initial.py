"""Eternal War One II's models move from ``characters`` to ``ew1`` in Django's state only: the
tables keep their names (``Meta.db_table``) and their rows, nothing is written to the database.
characters 0008 then forgets them on its side, and ew1 0002 renames their content types.
"""

import django.db.models.deletion
import ew1.models
from decimal import Decimal
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('campaigns', '0002_initial'),
        ('characters', '0007_sheet_fillfactor'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='EternalWarSheet',
                    fields=[
                        ('character', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='ew1', serialize=False, to='characters.character')),
                        ('FOR', models.PositiveSmallIntegerField(verbose_name='FOR')),
                        ('DEF', models.PositiveSmallIntegerField(verbose_name='DEF')),
                        ('TAI', models.PositiveSmallIntegerField(verbose_name='TAI')),
                        ('INT', models.PositiveSmallIntegerField(verbose_name='INT')),
                        ('DEX', models.PositiveSmallIntegerField(verbose_name='DEX')),
                        ('LUK', models.PositiveSmallIntegerField(blank=True, help_text='Empty for doors, objects and creatures.', null=True, verbose_name='LUK')),
                        ('level', models.PositiveSmallIntegerField(default=0, verbose_name='level')),
                        ('xp', models.PositiveIntegerField(default=0, verbose_name='XP')),
                        ('skills', models.JSONField(default=dict, verbose_name='skills')),
                        ('pa', models.DecimalField(decimal_places=1, default=Decimal('12'), max_digits=6, verbose_name='PA')),
                        ('pa_max', models.DecimalField(decimal_places=1, default=Decimal('12'), max_digits=6, verbose_name='PA cap')),
                        ('pa_anchor', models.BigIntegerField(default=ew1.models.unix_now, help_text='PA regeneration anchor, Unix seconds.')),
                        ('pa_spent_today', models.DecimalField(decimal_places=1, default=Decimal('0'), help_text='Counted against the daily PA cap; belongs to the day below.', max_digits=7, verbose_name='PA spent on the game day')),
                        ('pa_spent_day', models.DateField(blank=True, help_text="Local date (campaign time zone) the count belongs to; another day's count is 0.", null=True, verbose_name='game day of the PA count')),
                        ('pv', models.IntegerField(default=100, verbose_name='PV')),
                        ('pv_max', models.PositiveIntegerField(default=100, verbose_name='max PV')),
                        ('pv_anchor', models.BigIntegerField(default=ew1.models.unix_now, help_text='PV regeneration anchor, Unix seconds.')),
                        ('skill_points', models.PositiveIntegerField(default=0, verbose_name='skill points to spend')),
                        ('characteristic_points', models.PositiveIntegerField(default=0, verbose_name='characteristic points to spend')),
                        ('skills_raised', models.JSONField(blank=True, default=dict, help_text='Skill points spent per skill since the last level gained (per-level cap).')),
                        ('fixed_reduction', models.PositiveSmallIntegerField(blank=True, help_text='Doors, objects and creatures: damage reduction instead of DEF rolls.', null=True, verbose_name='fixed damage reduction')),
                    ],
                    options={
                        'verbose_name': 'Eternal War One II sheet',
                        'db_table': 'characters_eternalwarsheet',
                        'constraints': [models.CheckConstraint(condition=models.Q(('pa__gte', 0)), name='pa_not_negative')],
                    },
                ),
                migrations.CreateModel(
                    name='ItemTemplate',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('kind', models.CharField(choices=[('melee', 'Melee weapon'), ('ranged', 'Ranged weapon'), ('armour', 'Armour'), ('misc', 'Miscellaneous')], max_length=16, verbose_name='kind')),
                        ('category', models.CharField(choices=[('standard', 'Standard'), ('legendary', 'Legendary')], default='standard', max_length=16, verbose_name='category')),
                        ('description', models.TextField(blank=True, verbose_name='description')),
                        ('damage_dice', models.CharField(blank=True, help_text='e.g. 2d6+1', max_length=32, validators=[ew1.models.validate_dice], verbose_name='damage dice')),
                        ('weapon_skill', models.SmallIntegerField(default=0, verbose_name='weapon skill (ca)')),
                        ('range_cells', models.PositiveSmallIntegerField(default=1, verbose_name='range (cells)')),
                        ('armour', models.PositiveSmallIntegerField(default=0, verbose_name='armour points')),
                        ('heal_dice', models.CharField(blank=True, help_text='Consumables: PV restored when used, e.g. 1d6+1.', max_length=32, validators=[ew1.models.validate_dice], verbose_name='healing dice')),
                        ('campaign', models.ForeignKey(blank=True, help_text='Empty: available in every campaign.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='item_templates', to='campaigns.campaign')),
                    ],
                    options={
                        'db_table': 'characters_itemtemplate',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='ItemModifier',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('stat', models.CharField(choices=[('FOR', 'FOR'), ('DEF', 'DEF'), ('TAI', 'TAI'), ('INT', 'INT'), ('POU', 'POU'), ('DEX', 'DEX'), ('LUK', 'LUK')], max_length=3)),
                        ('dice', models.CharField(help_text='e.g. -1d3', max_length=32, validators=[ew1.models.validate_dice])),
                        ('item', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='modifiers', to='ew1.itemtemplate')),
                    ],
                    options={
                        'db_table': 'characters_itemmodifier',
                    },
                ),
                migrations.CreateModel(
                    name='ItemInstance',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('equipped', models.BooleanField(default=False, verbose_name='equipped')),
                        ('modifier_values', models.JSONField(blank=True, default=dict, verbose_name='modifiers')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='items', to='characters.character')),
                        ('template', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='instances', to='ew1.itemtemplate')),
                    ],
                    options={
                        'db_table': 'characters_iteminstance',
                        'ordering': ['id'],
                    },
                ),
                migrations.CreateModel(
                    name='CharacterDraft',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=60, verbose_name='name')),
                        ('rolled', models.JSONField(default=dict)),
                        ('rolls', models.JSONField(default=dict)),
                        ('deltas', models.JSONField(blank=True, default=dict)),
                        ('rerolls', models.PositiveSmallIntegerField(default=0)),
                        ('band', models.JSONField(blank=True, default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='campaigns.campaign')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='character_drafts', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'characters_characterdraft',
                        'constraints': [models.UniqueConstraint(fields=('user', 'campaign'), name='one_draft_per_user_and_campaign')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='itemtemplate',
                    constraint=models.UniqueConstraint(fields=('campaign', 'name'), name='unique_item_name_per_campaign'),
                ),
                migrations.AddIndex(
                    model_name='iteminstance',
                    index=models.Index(fields=['owner', 'equipped'], name='characters__owner_i_a86d47_idx'),
                ),
            ],
        ),
    ]
