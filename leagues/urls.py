"""The club, league and season pages, under /clubs/."""

from django.urls import path

from leagues.views import adjustments, clubs, leagues, organiser, player, seasons, standings

app_name = "leagues"

SEASON = "<slug:slug>/<slug:league_slug>/<int:number>/"
LEAGUE_PAGE = "<slug:club>/<slug:league>/"
SEASON_PAGE = f"{LEAGUE_PAGE}<id:number>/"

# A club's own pages take the words of leagues.slugs.CLUB_PAGE_WORDS: no league slug may.
urlpatterns = [
    # The member's own pages: "me", "entries" and "calendar" are no club's address.
    path("me/leagues/", player.my_leagues, name="player"),
    path("me/leagues/calendar/", player.renew_calendar, name="renew_calendar"),
    path("entries/<id:pk>/withdraw/", player.withdraw_entry, name="withdraw"),
    path("calendar/<str:token>.ics", player.calendar_feed, name="calendar_feed"),
    path("", clubs.club_list, name="clubs"),
    path("new/", clubs.new_club, name="new_club"),
    path("<slug:slug>/", clubs.club, name="club"),
    path("<slug:slug>/settings/", clubs.club_settings, name="settings"),
    path("<slug:slug>/invite-link/", clubs.renew_link, name="renew_link"),
    path("<slug:slug>/join/<slug:code>/", clubs.join_link, name="join_link"),
    path("<slug:slug>/members/", clubs.members, name="members"),
    path("<slug:slug>/members/<id:pk>/remove/", clubs.remove_member, name="remove_member"),
    path("<slug:slug>/members/<id:pk>/role/", clubs.change_role, name="change_role"),
    path("<slug:slug>/members/<id:pk>/owner/", clubs.transfer_ownership, name="transfer"),
    path("<slug:slug>/invite/", clubs.invite, name="invite"),
    path(
        "<slug:slug>/invitations/<id:pk>/withdraw/",
        clubs.withdraw_invitation,
        name="withdraw_invitation",
    ),
    path("<slug:slug>/invitation/", clubs.invitation, name="invitation"),
    path("<slug:slug>/invitation/accept/", clubs.accept_invitation, name="accept_invitation"),
    path("<slug:slug>/invitation/decline/", clubs.decline_invitation, name="decline_invitation"),
    path("<slug:slug>/request/", clubs.request_to_join, name="request_to_join"),
    path("<slug:slug>/request/withdraw/", clubs.withdraw_request, name="withdraw_request"),
    path("<slug:slug>/requests/<id:pk>/approve/", clubs.approve_request, name="approve_request"),
    path("<slug:slug>/requests/<id:pk>/decline/", clubs.decline_request, name="decline_request"),
    path("<slug:slug>/leave/", clubs.leave, name="leave"),
    # Leagues and their seasons: house rules, registration, the start. After the club's
    # own pages, whose words no league slug takes.
    path("<slug:club>/leagues/new/", leagues.new_league, name="new_league"),
    path(LEAGUE_PAGE, leagues.league_page, name="league"),
    path(f"{LEAGUE_PAGE}edit/", leagues.edit_league, name="edit_league"),
    path(f"{LEAGUE_PAGE}seasons/new/", seasons.open_season, name="open_season"),
    path(SEASON_PAGE, seasons.season_page, name="season"),
    path(f"{SEASON_PAGE}register/", seasons.register, name="register"),
    path(f"{SEASON_PAGE}unregister/", seasons.unregister, name="unregister"),
    path(f"{SEASON_PAGE}entries/", seasons.decide, name="decide"),
    path(f"{SEASON_PAGE}registration/", seasons.registration, name="registration"),
    path(f"{SEASON_PAGE}start/", seasons.start, name="start"),
    # A season's organisers' tools and its history.
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/",
        organiser.organiser,
        name="organiser",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/matchdays/<id:matchday>/close/",
        organiser.close_matchday,
        name="close_matchday",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/matchdays/<id:matchday>/deadline/",
        organiser.extend_deadline,
        name="extend_deadline",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/matchdays/next/open/",
        organiser.open_next_matchday,
        name="open_next_matchday",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/fixtures/<id:fixture>/deadline/",
        organiser.reschedule,
        name="reschedule",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/fixtures/<id:fixture>/result/",
        organiser.adjust_score,
        name="adjust_score",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/adjustments/<id:pk>/",
        adjustments.adjustment,
        name="adjustment",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/adjustments/<id:pk>/confirm/",
        adjustments.confirm,
        name="confirm_adjustment",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/adjustments/<id:pk>/decline/",
        adjustments.decline,
        name="decline_adjustment",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/entries/<id:entry>/substitute/",
        organiser.replace_player,
        name="replace_player",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/close/",
        organiser.close_season,
        name="close_season",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/close/announce/",
        organiser.announce_close,
        name="announce_close",
    ),
    path("<slug:club>/<slug:league>/<id:number>/history/", organiser.history, name="history"),
    path(f"{SEASON}standings/", standings.standings, name="standings"),
    path(
        f"{SEASON}standings/crosstable/<int:level>/",
        standings.crosstable,
        name="crosstable",
    ),
    path(f"{SEASON}standings.csv", standings.standings_csv, name="standings_csv"),
    path(f"{SEASON}results.csv", standings.results_csv, name="results_csv"),
]
