from tests.breaker.conftest import *  # noqa
from tests.breaker.conftest import logged_in, api_logged_in
def test_dbg(world):
    c = logged_in(world.alice)
    for u in ["game", "suicide", "reincarnate", "move"]:
        r = c.post(f"/characters/{10**20}/{u}/", {"dx": 1, "dy": 0}, follow=True)
        print(u, r.status_code, r.redirect_chain)
    a = api_logged_in(world.alice)
    for u in ["game", "suicide", "reincarnate", "move"]:
        r = a.post(f"/api/characters/{10**20}/{u}/", {"dx": 1, "dy": 0}, format="json")
        print(u, r.status_code, r.content[:200])
