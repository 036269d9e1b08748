"""Object permissions (django-rules): who may see and act with a character."""

import rules


@rules.predicate
def is_owner(user, character) -> bool:
    return character is not None and character.owner_id == user.pk


@rules.predicate
def is_game_master(user, character) -> bool:
    return character is not None and character.campaign.game_master_id == user.pk


can_view_sheet = is_owner | is_game_master | rules.is_staff
can_act = is_owner

rules.add_perm("characters.view_sheet", rules.is_authenticated & can_view_sheet)
rules.add_perm("characters.act", rules.is_authenticated & can_act)
